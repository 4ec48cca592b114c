import Injector
import Observation

// Everything here is main-actor isolated by default, as in an Xcode 26 app target.

/// The products on sale.
public protocol CatalogAPI {
    /// The SKUs on sale.
    func products() -> [String]
}

/// The catalog the app ships with.
public final class LiveCatalog: CatalogAPI {
    /// A catalog of a mug and a tee.
    public init() {}
    /// `["mug", "tee"]`.
    public func products() -> [String] { ["mug", "tee"] }
}

/// A main-actor store, built by a factory that runs on the main actor.
public final class CartStore {
    /// The SKUs in the cart, in the order they were added.
    public private(set) var items: [String] = []
    let catalog: any CatalogAPI

    /// An empty cart that sells what `catalog` lists.
    public init(catalog: any CatalogAPI) { self.catalog = catalog }

    /// Adds `sku` if the catalog sells it.
    public func add(_ sku: String) {
        if catalog.products().contains(sku) { items.append(sku) }
    }

    /// Empties the cart: its teardown, when the injector that keeps it lets it go.
    public func empty() { items.removeAll() }
}

/// A SwiftUI-style view model: every wrapper, each `@ObservationIgnored`.
@Observable
public final class ShopViewModel {
    @ObservationIgnored @Inject var store: CartStore
    @ObservationIgnored @LazyInject var catalog: any CatalogAPI
    @ObservationIgnored @OptionalInject var banner: Banner?

    /// What the screen shows after the last purchase.
    public var summary = ""

    /// A model whose wrapped properties resolve from `DependencyInjector.current`.
    public init() {}

    /// Buys `sku` and updates `summary`.
    public func buy(_ sku: String) {
        store.add(sku)
        summary = "\(store.items.count) item(s); \(banner?.text ?? "no banner"); \(catalog.products().count) products"
    }
}

/// A promotional line, registered by the app or a test, or none.
public struct Banner {
    /// The line to show.
    public let text: String
    /// A banner that reads `text`.
    public init(text: String) { self.text = text }
}

/// A module of main-actor registrations, written as anywhere else: no mark on any closure.
public struct ShopModule: MainActorDependencyModule {
    /// The module.
    public init() {}

    /// Registers the catalog, and the cart store by its initializer, emptied when let go.
    public func register(in registrar: MainActorRegistrar) {
        registrar.register((any CatalogAPI).self) { _ in LiveCatalog() }
        registrar.register(CartStore.self, scope: .singleton, initializer: CartStore.init)
            .teardown(mainActor: { store in store.empty() })
    }
}

/// `@Provider` in a main-actor app module.
public final class AppProviders {
    /// The banner, registered when the providers are created.
    @Provider public var banner: Banner = Banner(text: "free shipping")

    /// A main-actor value made when first resolved, then kept: the scoped form.
    @Provider(mainActorScope: .singleton) public var greeting: Greeting = Greeting(text: "welcome")

    /// Registers the app's provided values into `DependencyInjector.current`.
    public init() {}
}

/// A line the app greets with: a main-actor type, provided with a scope.
public final class Greeting {
    /// The line.
    public let text: String
    /// A greeting that reads `text`.
    public init(text: String) { self.text = text }
}
