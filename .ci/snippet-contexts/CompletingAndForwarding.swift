// What CompletingAndForwarding.md's Swift blocks assume (see .ci/snippets): the first
// block's types as written (the blocks about several hooks and a main-actor view controller
// compile with them too), and the payment protocols of the forwarding blocks.
import Injector

var injector: DependencyInjector { .shared }
var server: AsyncDependencyInjector { .shared }

final class LoginViewController {
    var presenter: LoginPresenter?
}

final class LoginRouter {
    func showHome() {}
}

final class LoginInteractor {
    let router: LoginRouter
    init(router: LoginRouter) { self.router = router }
}

final class LoginPresenter {
    weak var view: LoginViewController?
    let router: LoginRouter
    let interactor: LoginInteractor
    init(router: LoginRouter, interactor: LoginInteractor) {
        self.router = router
        self.interactor = interactor
    }
}

protocol PaymentService: Sendable {
    func charge(cents: Int) throws -> String
}
protocol Refunds: Sendable {
    func refund(receipt: String) throws
}

final class StripeClient: PaymentService, Refunds {
    init(apiKey: String) {}
    func charge(cents: Int) throws -> String { "" }
    func refund(receipt: String) throws {}
}

struct Routes: Sendable {}

// A server's router, completed once its routes exist.
final class Router: @unchecked Sendable {
    var routes: Routes?
}

// A view model completed by two hooks, each from its own module.
final class Cart {}
final class Analytics {}
final class CheckoutViewModel {
    var cart: Cart?
    var analytics: Analytics?
}
