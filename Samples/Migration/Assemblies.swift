import Injector

// Step 5: a Swinject-style app, ported. Its two `Assembly` types become two modules; each
// Swinject construct is noted where it was.

extension Scope {
    /// From login to logout. Swinject: a custom `ObjectScope` and `resetObjectScope(.session)`.
    static let session = Scope.named("session")
}

// The login module (VIPER): the view owns its presenter, the presenter points back at the
// view weakly, and the presenter and the interactor share one router per screen.

final class LoginView {
    var presenter: LoginPresenter?

    func tapLogIn(as user: String) { presenter?.logIn(as: user) }
}

final class LoginRouter {
    init() { print("  (a LoginRouter is created)") }

    func showHome(for user: String) { print("  router: home screen for \(user)") }
    func showError(_ message: String) { print("  router: error, \(message)") }
}

final class LoginInteractor {
    let router: LoginRouter
    let session: UserSession

    init(router: LoginRouter, session: UserSession) {
        self.router = router
        self.session = session
    }

    func logIn(as user: String) -> Bool {
        guard !user.isEmpty else {
            router.showError("enter a user name")
            return false
        }
        session.user = user
        return true
    }
}

final class LoginPresenter {
    weak var view: LoginView?
    let router: LoginRouter
    let interactor: LoginInteractor

    init(router: LoginRouter, interactor: LoginInteractor) {
        self.router = router
        self.interactor = interactor
    }

    func logIn(as user: String) {
        if interactor.logIn(as: user) { router.showHome(for: user) }
    }
}

/// The user's session: who is logged in and what is in the cart.
final class UserSession {
    var user: String?
    var cart: [String] = []

    init() { print("  (a UserSession is created)") }
}

// A payment provider that implements two protocols: one client for charging and refunding.

protocol PaymentService {
    func charge(cents: Int, for user: String) -> String
}

protocol Refunds {
    func refund(_ receipt: String) -> String
}

final class StripeClient: PaymentService, Refunds, Sendable {
    let apiKey: String

    init(apiKey: String) {
        self.apiKey = apiKey
        print("  (a StripeClient is created)")
    }

    func charge(cents: Int, for user: String) -> String { "receipt-\(user)-\(cents)" }
    func refund(_ receipt: String) -> String { "refunded \(receipt)" }
}

/// Swinject: `final class LoginAssembly: Assembly { func assemble(container:) … }`.
struct LoginAssembly: DependencyModule {
    func register(in injector: DependencyInjector) {
        // Swinject: `.inObjectScope(.graph)`, its default scope.
        injector.register(LoginRouter.self, scope: .graph) { _ in LoginRouter() }
        injector.register(LoginInteractor.self) { r in try LoginInteractor(router: r.resolve(), session: r.resolve()) }
        // Swinject: `.initCompleted { r, p in p.view = r.resolve(LoginView.self) }`; here the
        // resolve throws instead of returning an optional.
        injector.register(LoginPresenter.self) { r in try LoginPresenter(router: r.resolve(), interactor: r.resolve()) }
            .initCompleted { r, presenter in presenter.view = try r.resolve(LoginView.self) }
        injector.register(LoginView.self) { _ in LoginView() }
            .initCompleted { r, view in view.presenter = try r.resolve(LoginPresenter.self) }
    }
}

/// Swinject: an assembly whose container was made with `defaultObjectScope: .container`.
struct ServicesAssembly: DependencyModule {
    /// What this module registers is a singleton unless it says otherwise.
    var defaultScope: Scope? { .singleton }

    func register(in injector: DependencyInjector) {
        injector.register("sk_test_123", name: "stripeKey")
        // A singleton by the module's default. Swinject: `.implements(PaymentService.self, Refunds.self)`.
        injector.register(StripeClient.self) { r in try StripeClient(apiKey: r.resolve(String.self, name: "stripeKey"))
        }
        .implements((any PaymentService).self, (any Refunds).self)
        injector.register(UserSession.self, scope: .session) { _ in UserSession() }
    }
}
