import Injector
import InjectorTesting
import Testing

#if canImport(XCTest)
    import XCTest
#endif

protocol Receipts: Sendable { var kind: String { get } }
struct LiveReceipts: Receipts { let kind = "live" }
struct FakeReceipts: Receipts { let kind = "fake" }
protocol Ledger: Sendable {}
struct LiveLedger: Ledger {}

/// The app's registrations, as an app's start-up code makes them.
@Sendable func registerShop(in injector: DependencyInjector) {
    injector.register(LiveReceipts() as any Receipts)
    injector.register(MockPayments(id: 0) as any PaymentService)
    injector.register((any Ledger).self) { _ in LiveLedger() }.inTests { _ in LiveLedger() }
}

/// A suite turns strict mode on in one line: the app's services above, its stand-ins in it.
@Suite(.injecting(strict: true, app: registerShop) { $0.register(MockPayments(id: 7) as any PaymentService) })
struct StrictModeTests {
    @Test func whatTheSuiteProvidesIsUsed() {
        #expect(Checkout().pay() == "mock 7 charged 100")
    }

    @Test(.injecting { $0.register(FakeReceipts() as any Receipts) })
    func whatATestProvidesIsUsed() throws {
        #expect(try DependencyInjector.current.resolve((any Receipts).self).kind == "fake")
    }

    @Test func aRegistrationWithATestDoubleNeedsNothingMore() throws {
        #expect(try DependencyInjector.current.resolve((any Ledger).self) is LiveLedger)
    }

    /// A forgotten mock fails the test that used it: the resolve throws, and an issue naming
    /// the type and where the app registered it is recorded even when the error is swallowed.
    @Test func aForgottenMockFailsTheTestWithAnIssue() {
        let issues = recordedIssues { _ = try? DependencyInjector.current.resolve((any Receipts).self) }

        #expect(issues.count == 1)
        let message = issues.first?.comments.first ?? ""
        #expect(message.hasPrefix("Injector refused to resolve InjectorTestingTests.Receipts"))
        #expect(message.contains("the app's registration (InjectorTestingTests/StrictModeTests.swift:17)"))
        #expect(issues.first?.fileID == "InjectorTestingTests/StrictModeTests.swift")
        #expect(issues.first?.line == 17)  // where the app registered it
    }

    @Test(.injecting(strict: true, allowing: [(any Receipts).self]))
    func aTestCanAllowTheRealOne() throws {
        #expect(try DependencyInjector.current.resolve((any Receipts).self).kind == "live")
    }
}

/// The app's async registrations.
@Sendable func registerMailing(in injector: AsyncDependencyInjector) async {
    await injector.register(MockMailer(id: 0) as any Mailer)
}

/// Strict mode on the actor face, through the same trait.
@Suite(.injecting(strict: true, asyncApp: registerMailing))
struct AsyncStrictModeTests {
    @Test func aForgottenAsyncMockFailsTheTest() async {
        await withKnownIssue {
            _ = try await signUp()
        }
    }

    @Test(.injecting(async: { await $0.register(MockMailer(id: 3) as any Mailer) }))
    func aProvidedAsyncMockIsUsed() async throws {
        #expect(try await signUp() == "mock 3 sent")
    }
}

#if canImport(XCTest)
    /// Strict mode in an `InjectorTestCase`: the app's services in `registerApp`, the test's
    /// stand-ins in `registerDependencies`. The refusals are caught here to be checked.
    final class StrictTestCaseTests: InjectorTestCase {
        private var refusals: [String] = []

        override var isStrict: Bool { true }
        override func registerApp(in injector: DependencyInjector) { registerShop(in: injector) }
        override func registerDependencies(in injector: DependencyInjector) {
            injector.register(FakeReceipts() as any Receipts)
        }

        #if canImport(Darwin)
            override func record(_ issue: XCTIssue) {
                guard issue.compactDescription.contains("Injector refused") else { return super.record(issue) }
                refusals.append(issue.compactDescription)
            }
        #else
            override func recordFailure(
                withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool
            ) {
                guard description.contains("Injector refused") else {
                    return super.recordFailure(
                        withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
                }
                refusals.append(description)
            }
        #endif

        func testWhatTheTestProvidesIsUsed() throws {
            XCTAssertEqual(try injector.resolve((any Receipts).self).kind, "fake")
            XCTAssertTrue(refusals.isEmpty)
        }

        func testAForgottenMockFailsTheTest() {
            XCTAssertThrowsError(try injector.resolve((any PaymentService).self))
            XCTAssertEqual(refusals.count, 1)
            XCTAssertTrue(refusals.first?.contains("InjectorTestingTests.PaymentService") == true)
        }
    }
#endif
