import Injector
import Storefront

struct StubUsers: UserRepository {
    func name(of id: Int) -> String { "user \(id)" }
}

struct StubGateway: PaymentGateway {
    func charge(_ cents: Int) -> String { "charged \(cents) in a test" }
}

/// The app's registrations, with the configuration and the receipt store forgotten: what a
/// test that forgets a registration sees.
@Sendable func registerStorefrontWithoutConfig(in injector: DependencyInjector) {
    registerStorefront(in: injector)
    injector.unregister(AppConfig.self)
    injector.unregister((any ReceiptStore).self)
}
