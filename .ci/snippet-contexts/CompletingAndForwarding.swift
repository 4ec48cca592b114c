// What CompletingAndForwarding.md's Swift blocks assume (see .ci/snippets): the first
// block's types as written (the third block, about a main-actor view controller, compiles
// with them too), and the payment protocols of the fourth.
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
