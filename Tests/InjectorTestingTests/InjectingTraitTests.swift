import Injector
import InjectorTesting
import Testing

/// A hundred test cases run in parallel, each registering its own mock under the same key.
@Suite(.injecting())
struct ParallelIsolationTests {
    @Test(arguments: 0..<100)
    func eachCaseSeesOnlyItsOwnMock(id: Int) async throws {
        DependencyInjector.current.register(MockPayments(id: id) as any PaymentService)
        for _ in 0..<5 {
            await Task.yield()  // let the other cases interleave between registration and use
            #expect(Checkout().pay() == "mock \(id) charged 100")
        }
    }

    @Test func nothingLeaksIntoShared() {
        #expect(!DependencyInjector.shared.isRegistered((any PaymentService).self))
        #expect(DependencyInjector.current !== DependencyInjector.shared)
        #expect(DependencyInjector.current.parent === DependencyInjector.shared)
    }
}

@Suite(.injecting { $0.register(MockPayments(id: 1) as any PaymentService) })
struct SuiteLevelTraitTests {
    @Test func theSuitesRegistrationsReachEveryTest() {
        #expect(Checkout().pay() == "mock 1 charged 100")
    }

    @Test(.injecting { $0.register(MockPayments(id: 2) as any PaymentService) })
    func aTestsOwnTraitNestsInsideTheSuitesAndWins() {
        #expect(Checkout().pay() == "mock 2 charged 100")
        #expect(DependencyInjector.current.parent?.isRegistered((any PaymentService).self) == true)
    }

    @Test func childTasksInheritTheTestsInjector() async {
        async let fromChildTask = Checkout().pay()
        let fromUnstructuredTask = await Task { Checkout().pay() }.value
        #expect(await fromChildTask == "mock 1 charged 100")
        #expect(fromUnstructuredTask == "mock 1 charged 100")
    }
}

@Test(.injecting { $0.register(MockPayments(id: 3) as any PaymentService) })
func aConfiguredTraitOnAFreeFunction() {
    #expect(Checkout().pay() == "mock 3 charged 100")
}
