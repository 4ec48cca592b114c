import Injector
import InjectorTesting
import Testing

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
            issue.description.contains("any InjectorTestingTests.PaymentService was resolved 1 time(s), expected none")
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
