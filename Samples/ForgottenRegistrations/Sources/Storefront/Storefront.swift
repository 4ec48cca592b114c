import Injector

// A small shop: configuration, an HTTP client, a user repository, a payment gateway, and the
// use case and view model that an app builds from them.

/// Where the shop's API lives.
public struct AppConfig: Sendable {
    /// The API's base URL.
    public let baseURL: String

    /// A configuration for the API at `baseURL`.
    public init(baseURL: String) { self.baseURL = baseURL }
}

/// Fetches from the shop's API.
public protocol HTTPClient: Sendable {
    /// The response to a GET of `path`.
    func get(_ path: String) -> String
}

/// The client the app ships.
public struct LiveHTTPClient: HTTPClient {
    let config: AppConfig

    /// The response to a GET of `path` from the configured API.
    public func get(_ path: String) -> String { "GET \(config.baseURL)\(path)" }
}

/// Knows the shop's users.
public protocol UserRepository: Sendable {
    /// The name of the user `id`.
    func name(of id: Int) -> String
}

/// Users fetched from the API.
public struct RemoteUsers: UserRepository {
    let http: any HTTPClient

    /// The name of the user `id`, fetched.
    public func name(of id: Int) -> String { http.get("/users/\(id)") }
}

/// Takes payments.
public protocol PaymentGateway: Sendable {
    /// Charges `cents`; what the gateway answered.
    func charge(_ cents: Int) -> String
}

/// The live payment gateway: a test must never reach it.
public struct StripeGateway: PaymentGateway {
    /// Charges `cents` for real.
    public func charge(_ cents: Int) -> String { "charged \(cents) through Stripe" }
}

/// Places an order for a user: needs the users and the payment gateway.
public final class PlaceOrderUseCase {
    @Inject var users: any UserRepository
    @Inject var payments: any PaymentGateway

    /// A use case whose dependencies resolve from `DependencyInjector.current`.
    public init() {}

    /// Charges `cents` for `user`'s order.
    public func place(for user: Int, cents: Int) -> String {
        "\(users.name(of: user)): \(payments.charge(cents))"
    }
}

/// What a screen shows: built by a factory, or by hand.
public final class OrderViewModel {
    @Inject var placeOrder: PlaceOrderUseCase

    /// A view model whose use case resolves from `DependencyInjector.current`.
    public init() {}

    /// Buys the screen's item for `user`.
    public func buy(for user: Int) -> String { placeOrder.place(for: user, cents: 500) }
}

/// Keeps the receipts of past orders.
public protocol ReceiptStore: Sendable {
    /// The latest receipt of `user`.
    func latest(for user: Int) -> String
}

/// Receipts fetched from the API.
public struct RemoteReceipts: ReceiptStore {
    let http: any HTTPClient

    /// The latest receipt of `user`, fetched.
    public func latest(for user: Int) -> String { http.get("/users/\(user)/receipts/latest") }
}

/// A screen that loads its receipts only when it is shown: its store resolves on first read.
public final class ReceiptsViewModel {
    @LazyInject var receipts: any ReceiptStore

    /// A view model whose store resolves from `DependencyInjector.current`, when first read.
    public init() {}

    /// What the screen shows for `user`.
    public func latestReceipt(for user: Int) -> String { receipts.latest(for: user) }
}

/// The app's registrations, in one function that its tests reuse. The use case and the view
/// model are code of the app's own, which a strict test may run as it is; the services behind
/// them (the network, the payments) each need a stand-in in a strict test.
public func registerStorefront(in injector: DependencyInjector) {
    injector.register(AppConfig(baseURL: "https://shop.example"))
    injector.register((any HTTPClient).self, scope: .singleton) { r in try LiveHTTPClient(config: r.resolve()) }
    injector.register((any UserRepository).self) { r in try RemoteUsers(http: r.resolve()) }
    injector.register((any PaymentGateway).self, scope: .singleton) { _ in StripeGateway() }
    injector.register(PlaceOrderUseCase.self) { _ in PlaceOrderUseCase() }.allowedInTests()
    injector.register(OrderViewModel.self) { _ in OrderViewModel() }.allowedInTests()
    injector.register((any ReceiptStore).self) { r in try RemoteReceipts(http: r.resolve()) }
}
