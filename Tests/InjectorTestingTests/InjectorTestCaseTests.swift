import Injector
import InjectorTesting
import XCTest

final class InjectorTestCaseTests: InjectorTestCase {
    override func registerDependencies(in injector: DependencyInjector) {
        injector.register(MockPayments(id: 0) as any PaymentService)
    }

    func testRegisterDependenciesReachesTheTest() {
        XCTAssertEqual(Checkout().pay(), "mock 0 charged 100")
        XCTAssertTrue(DependencyInjector.current === injector)
        XCTAssertFalse(DependencyInjector.shared.isRegistered((any PaymentService).self))
    }

    func testAsyncMethodsSeeTheirOwnInjector() async {
        injector.register(MockPayments(id: 1) as any PaymentService)
        await Task.yield()
        XCTAssertEqual(Checkout().pay(), "mock 1 charged 100")
        let fromTask = await Task { Checkout().pay() }.value
        XCTAssertEqual(fromTask, "mock 1 charged 100")
    }

    func testConcurrentTasksInsideOneTestShareItsInjector() async {
        injector.register(MockPayments(id: 2) as any PaymentService)
        let results = await withTaskGroup(of: String.self) { group in
            for _ in 0..<20 { group.addTask { Checkout().pay() } }
            return await group.reduce(into: []) { $0.append($1) }
        }
        XCTAssertEqual(results, Array(repeating: "mock 2 charged 100", count: 20))
    }

    func testEachMethodStartsFresh() async {
        // Whatever other methods registered is gone: only registerDependencies ran.
        XCTAssertEqual(Checkout().pay(), "mock 0 charged 100")
        injector.register(MockPayments(id: 3) as any PaymentService)
        XCTAssertEqual(Checkout().pay(), "mock 3 charged 100")
    }
}
