// QuickStart: the README's Quick Start, then a mock swapped in for one block and a typed error.
// Run it with `swift run QuickStart`.
import Injector

protocol WeatherService: Sendable {
    func forecast(for city: String) -> String
}

struct LiveWeather: WeatherService {
    let baseURL: String
    func forecast(for city: String) -> String { "sunny in \(city)" }
}

struct StubWeather: WeatherService {
    func forecast(for city: String) -> String { "21°C in \(city)" }
}

/// One logger for the whole app: a singleton.
final class Logger: Sendable {
    init() { print("  (a Logger is created)") }
    func log(_ message: String) { print("  \(message)") }
}

/// Its properties resolve from `DependencyInjector.current` when a screen is created.
final class ForecastScreen {
    @Inject var weather: any WeatherService
    @Inject var logger: Logger

    func show(_ city: String) { logger.log(weather.forecast(for: city)) }
}

/// The app's registrations, in one function that its tests reuse (a test process does not
/// run the app's top-level code).
func registerServices(in injector: DependencyInjector) {
    injector.register("https://api.weather.example", name: "baseURL")
    injector.register(Logger.self, scope: .singleton) { _ in Logger() }
    injector.register((any WeatherService).self) { r in
        try LiveWeather(baseURL: r.resolve(String.self, name: "baseURL"))
    }
}

// Register where the wrappers look: `DependencyInjector.current`, which is `shared` here.
let injector = DependencyInjector.shared
registerServices(in: injector)

print("1. The wrappers resolve what was registered:")
ForecastScreen().show("Lisbon")
ForecastScreen().show("Oslo")

print("2. A scope swaps in a stub, as a test or a preview does; outside it, nothing changed:")
injector.withOverrides({ $0.register(StubWeather() as any WeatherService) }) {
    ForecastScreen().show("Lisbon")
}
ForecastScreen().show("Lisbon")

print("3. A typed error, caught without a cast:")
struct Checkout {}
injector.register(Checkout.self) { r in
    _ = try r.resolve(String.self, name: "paymentsKey")
    return Checkout()
}
do {
    _ = try injector.resolve(Checkout.self)
} catch {
    // `error` is an InjectionError: typed throws, no cast needed.
    if case .notRegistered(let key, _, _) = error {
        print("  missing \(key). The whole message:")
    }
    print(error.description.split(separator: "\n").map { "  | \($0)" }.joined(separator: "\n"))
}
print("QuickStart finished.")
