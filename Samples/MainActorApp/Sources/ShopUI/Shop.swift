import Injector
import Observation

// Everything here is main-actor isolated by default, as in an Xcode 26 app target.

public protocol CatalogAPI {
    func products() -> [String]
}

public final class LiveCatalog: CatalogAPI {
    public init() {}
    public func products() -> [String] { ["mug", "tee"] }
}

/// A main-actor store, built by a factory that runs on the main actor.
public final class CartStore {
    public private(set) var items: [String] = []
    let catalog: any CatalogAPI

    public init(catalog: any CatalogAPI) { self.catalog = catalog }

    public func add(_ sku: String) {
        if catalog.products().contains(sku) { items.append(sku) }
    }
}

/// A SwiftUI-style view model: every wrapper, each `@ObservationIgnored`.
@Observable
public final class ShopViewModel {
    @ObservationIgnored @Inject var store: CartStore
    @ObservationIgnored @LazyInject var catalog: any CatalogAPI
    @ObservationIgnored @OptionalInject var banner: Banner?

    public var summary = ""

    public init() {}

    public func buy(_ sku: String) {
        store.add(sku)
        summary = "\(store.items.count) item(s); \(banner?.text ?? "no banner"); \(catalog.products().count) products"
    }
}

public struct Banner {
    public let text: String
    public init(text: String) { self.text = text }
}

/// A module of main-actor registrations: `{ @MainActor r in … }` marks a factory that builds
/// a main-actor type (the one mark such a target needs; see the README).
public struct ShopModule: DependencyModule {
    public init() {}

    public func register(in injector: DependencyInjector) {
        injector.register((any CatalogAPI).self) { @MainActor _ in LiveCatalog() }
        injector.register(CartStore.self, scope: .singleton) { @MainActor r in try CartStore(catalog: r.resolve()) }
    }
}

/// `@Provider` in a main-actor app module.
public final class AppProviders {
    @Provider public var banner: Banner = Banner(text: "free shipping")

    public init() {}
}
