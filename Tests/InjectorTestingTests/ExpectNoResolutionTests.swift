import Dispatch
import Injector
import InjectorTesting
import TestSupport
import Testing

final class Shop: Sendable {
    let payments: any PaymentService

    init(payments: any PaymentService) {
        self.payments = payments
    }
}

final class Catalog {
    @Inject(name: "catalogTitle") var title: String
}

@Suite(
    .injecting {
        $0.register(MockPayments(id: 9) as any PaymentService)
        $0.register("Spring", name: "catalogTitle")
    })
struct ExpectNoResolutionTests {
    @Test func passesWhenTheDependencyIsNotResolved() {
        let title = expectNoResolution(of: (any PaymentService).self) { Catalog().title }
        #expect(title == "Spring")
    }

    @Test func recordsAnIssueWhenTheDependencyIsResolved() {
        withKnownIssue {
            expectNoResolution(of: (any PaymentService).self) { _ = Checkout().pay() }
        } matching: { issue in
            issue.description.contains(
                "Injector: any InjectorTestingTests.PaymentService was resolved once in the body of expectNoResolution, "
                    + "which expected none: any InjectorTestingTests.PaymentService.")
        }
    }

    @Test func readsASingletonTheTestMadeWithoutMakingItAgain() throws {
        DependencyInjector.current.register(Shop.self, scope: .singleton) { r in try Shop(payments: r.resolve()) }
        let shop = try DependencyInjector.current.resolve(Shop.self)
        // Nothing in the body resolves the payments: the shop it reads is the one made above.
        let seen = try expectNoResolution(of: (any PaymentService).self) {
            try DependencyInjector.current.resolve(Shop.self)
        }
        #expect(seen === shop)
    }

    /// Regression (from a review): a singleton first made in the body made its resolves
    /// through the scope that keeps it, which the body's child did not watch.
    @Test func seesTheResolvesOfASingletonFirstMadeInTheBody() {
        DependencyInjector.current.register(Shop.self, scope: .singleton) { r in try Shop(payments: r.resolve()) }
        withKnownIssue {
            _ = try? expectNoResolution(of: (any PaymentService).self) {
                try DependencyInjector.current.resolve(Shop.self)
            }
        } matching: {
            $0.description.contains("was resolved once in the body of expectNoResolution")
        }
    }

    /// A resolve in a body that then throws is recorded too. (Catches: the throw left before
    /// the check, and nothing was recorded.)
    @Test func seesAResolveInABodyThatThenThrows() {
        struct Declined: Error {}
        withKnownIssue {
            _ = try? expectNoResolution(of: (any PaymentService).self) {
                _ = try DependencyInjector.current.resolve((any PaymentService).self)
                throw Declined()
            }
        } matching: {
            $0.description.contains("was resolved once in the body of expectNoResolution")
        }
    }

    /// Outside a test scope, the body's child is closed when it returns: what it registered
    /// is torn down. Regression (from a review): it never was.
    @Test func outsideATestScopeWhatTheBodyRegisteredIsTornDown() throws {
        let torn = Counter()
        let app = DependencyInjector()
        try DependencyInjector.$current.withValue(app) {
            try expectNoResolution(of: (any PaymentService).self) {
                DependencyInjector.current.register(Shop.self, scope: .singleton) { _ in
                    Shop(payments: MockPayments(id: 1))
                }
                .teardown { _ in torn.increment() }
                _ = try DependencyInjector.current.resolve(Shop.self)
            }
        }
        #expect(torn.value == 1)
    }

    /// Regression (from a review): watching the test's scope, it counted another thread's
    /// resolve, made while the body ran, as the body's.
    @Test func aResolveOnAnotherThreadIsNotTheBodys() {
        let test = DependencyInjector.current
        let go = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            go.wait()
            _ = try? test.resolve((any PaymentService).self)
            done.signal()
        }
        expectNoResolution(of: (any PaymentService).self) {
            go.signal()
            done.wait()
        }
    }

    @Test func seesResolvesMadeByFactories() {
        DependencyInjector.current.register(Checkout.self) { _ in Checkout() }
        withKnownIssue {
            expectNoResolution(of: (any PaymentService).self) {
                _ = try? DependencyInjector.current.resolve(Checkout.self).pay()
            }
        }
    }
}
