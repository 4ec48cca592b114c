import Injector
import InjectorTesting
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

    @Test func seesResolvesMadeByFactories() {
        DependencyInjector.current.register(Checkout.self) { _ in Checkout() }
        withKnownIssue {
            expectNoResolution(of: (any PaymentService).self) {
                _ = try? DependencyInjector.current.resolve(Checkout.self).pay()
            }
        }
    }
}
