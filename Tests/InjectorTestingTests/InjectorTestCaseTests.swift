import Injector
import InjectorTesting
import XCTest

final class InjectorTestCaseTests: InjectorTestCase {
    override func registerDependencies(in injector: DependencyInjector) {
        injector.register(MockPayments(id: 0) as any PaymentService)
    }

    override func registerDependencies(in injector: AsyncDependencyInjector) async throws {
        await injector.register(MockMailer(id: 0) as any Mailer)
    }

    func testRegisterDependenciesReachesTheTest() async throws {
        XCTAssertEqual(Checkout().pay(), "mock 0 charged 100")
        XCTAssertTrue(DependencyInjector.current === injector)
        XCTAssertFalse(DependencyInjector.shared.isRegistered((any PaymentService).self))
        let sent = try await signUp()
        XCTAssertEqual(sent, "mock 0 sent")
        XCTAssertTrue(AsyncDependencyInjector.current === asyncInjector)
        let sharedHasAMailer = await AsyncDependencyInjector.shared.isRegistered((any Mailer).self)
        XCTAssertFalse(sharedHasAMailer)
    }

    func testSynchronousMethodsSeeTheAsyncInjectorToo() {
        XCTAssertTrue(AsyncDependencyInjector.current === asyncInjector)
        // Under the scope of `registerApp(in:)`, under `shared`.
        XCTAssertTrue(asyncInjector.parent?.parent === AsyncDependencyInjector.shared)
    }

    func testBothFacesShareTheMethodsOneScope() async throws {
        XCTAssertTrue(asyncInjector.synchronous === injector)
        // Registered through one face, resolved through the other, and gone with the method.
        await asyncInjector.register(MockPayments(id: 4) as any PaymentService)
        XCTAssertEqual(Checkout().pay(), "mock 4 charged 100")
        injector.register(MockMailer(id: 4) as any Mailer)
        let sent = try await signUp()
        XCTAssertEqual(sent, "mock 4 sent")
    }

    func testAsyncMethodsSeeTheirOwnInjector() async throws {
        injector.register(MockPayments(id: 1) as any PaymentService)
        await asyncInjector.register(MockMailer(id: 1) as any Mailer)
        await Task.yield()
        XCTAssertEqual(Checkout().pay(), "mock 1 charged 100")
        let fromTask = await Task { Checkout().pay() }.value
        XCTAssertEqual(fromTask, "mock 1 charged 100")
        let sentFromTask = try await Task { try await signUp() }.value
        XCTAssertEqual(sentFromTask, "mock 1 sent")
    }

    func testConcurrentTasksInsideOneTestShareItsInjector() async {
        injector.register(MockPayments(id: 2) as any PaymentService)
        let results = await withTaskGroup(of: String.self) { group in
            for _ in 0..<20 { group.addTask { Checkout().pay() } }
            return await group.reduce(into: []) { $0.append($1) }
        }
        XCTAssertEqual(results, Array(repeating: "mock 2 charged 100", count: 20))
    }

    func testEachMethodStartsFresh() async throws {
        // Whatever other methods registered is gone: only registerDependencies ran.
        XCTAssertEqual(Checkout().pay(), "mock 0 charged 100")
        var sent = try await signUp()
        XCTAssertEqual(sent, "mock 0 sent")
        injector.register(MockPayments(id: 3) as any PaymentService)
        await asyncInjector.register(MockMailer(id: 3) as any Mailer)
        XCTAssertEqual(Checkout().pay(), "mock 3 charged 100")
        sent = try await signUp()
        XCTAssertEqual(sent, "mock 3 sent")
    }
}

/// A wrapper that fails while an `InjectorTestCase` method runs fails that test, at the
/// property's declaration. The failures are caught here to be checked, not reported.
final class WrapperFailureTestCaseTests: FailureCatchingTestCase {
    override var marker: String { "could not be resolved" }

    func testAFailedInjectFailsTheTestAtItsDeclaration() throws {
        let error = Receipt().$printer.failure
        XCTAssertNotNil(error)
        XCTAssertEqual(caught.count, 1)
        let failure = try XCTUnwrap(caught.first)
        XCTAssertTrue(failure.description.contains(recordedMessage("@Inject", line: Receipt.printerLine, error: error)))
        XCTAssertTrue(failure.file.hasSuffix("Tests/InjectorTestingTests/WrapperFailureRecordingTests.swift"))
        XCTAssertEqual(failure.line, Receipt.printerLine)
    }
}

/// A module whose registration fails.
private struct UnreadyModule: DependencyModule {
    func register(in injector: DependencyInjector) throws(InjectionError) {
        _ = try injector.resolve(Int.self, name: "not registered")
    }
}

/// `registerDependencies(in:)` may throw: the test fails before its body runs, with the error.
/// The failure is caught here to be checked.
final class ThrowingRegistrationTestCaseTests: FailureCatchingTestCase {
    private var bodyRan = false

    override var marker: String { "Injector could not resolve" }

    override func registerDependencies(in injector: DependencyInjector) throws {
        try injector.install(UnreadyModule())
    }

    func testTheBodyDoesNotRun() {
        bodyRan = true
    }

    override func tearDown() {
        XCTAssertFalse(bodyRan)
        let failures = caught.map(\.description).filter { $0.contains("The registrations of") }
        XCTAssertEqual(failures.count, 1)
        XCTAssertTrue(failures.first?.contains("Swift.Int named \"not registered\"") == true)
        super.tearDown()
    }
}
