// What MainActorAndApps.md's Swift blocks assume (see .ci/snippets).
import Injector
import Observation

var injector: DependencyInjector { .shared }

final class SettingsStore {}

final class Catalog {}

@MainActor final class CartStore {
    init(catalog: Catalog) {}
}

protocol WeatherService {
    func forecast(for city: String) -> String
}

final class Logger {}

protocol CatalogAPI {}

@MainActor final class LiveCatalog: CatalogAPI {}
