import Injector
import InjectorTesting
import TestSupport
import Testing

protocol ReceiptPrinter: Sendable {}
protocol ReceiptArchive: Sendable {}
struct Stamp: Sendable {}

/// An object whose dependencies the tests below leave missing or broken.
final class Receipt {
    static let printerLine = #line + 1
    @Inject var printer: any ReceiptPrinter
    static let archiveLine = #line + 1
    @LazyInject var archive: any ReceiptArchive
    static let stampLine = #line + 1
    @OptionalInject var stamp: Stamp?
}

/// What a test scope records when `property` of a `Receipt`, declared at `line`, fails with `error`.
func recordedMessage(_ property: String, line: Int, error: InjectionError?, ownRegistrations: Int = 0) -> String {
    let own = ownRegistrations == 1 ? "1 registration" : "\(ownRegistrations) registrations"
    let location = "InjectorTestingTests/WrapperFailureRecordingTests.swift:\(line)"
    let (declared, advice) =
        switch property {
        case "@Inject":
            (
                "\(location) (in Receipt)",
                "Reading the property stops the test process. To fail only this test, create the object with "
                    + "`try DependencyInjector.current.make { … }`, which throws this error, or check `$property` first."
            )
        case "@LazyInject":
            (location, "Reading the property stops the test process; `$property` gives this error without stopping.")
        default:
            (location, "The property reads as nil; `$property` gives this error.")
        }
    return """
        \(property) property declared at \(declared) could not be resolved.
        \(error.map(String.init(describing:)) ?? "no error")
        Searched: a test scope (a child that keeps its own singletons, as withOverrides, .injecting and \
        InjectorTestCase make) under DependencyInjector.shared, with \(own) of its own and 0 in its ancestors.
        \(advice)
        """
}

/// The issues `body` records, each expected (`withKnownIssue`), with their comments and lines.
func recordedIssues(_ body: () -> Void) -> [(comments: [String], fileID: String?, line: Int?)] {
    let issues = Collected<Issue>()
    withKnownIssue {
        body()
    } matching: { issue in
        issues.append(issue)
        return true
    }
    return issues.values.map { ($0.comments.map(\.rawValue), $0.sourceLocation?.fileID, $0.sourceLocation?.line) }
}

/// A wrapper that fails inside the trait's scope records the failure on the test, at the
/// property, when it fails.
@Suite(.injecting())
struct WrapperFailureRecordingTests {
    private let file = "InjectorTestingTests/WrapperFailureRecordingTests.swift"

    @Test func aFailedInjectIsRecordedOnTheTestAtItsDeclaration() throws {
        var error: InjectionError?
        let issues = recordedIssues { error = Receipt().$printer.failure }

        let recorded = try #require(issues.first)
        #expect(issues.count == 1)
        #expect(recorded.comments == [recordedMessage("@Inject", line: Receipt.printerLine, error: error)])
        #expect(recorded.fileID == file)
        #expect(recorded.line == Receipt.printerLine)
        guard case .notRegistered(let key, _, _) = error else {
            Issue.record("expected notRegistered, got \(String(describing: error))")
            return
        }
        #expect(key == DependencyKey((any ReceiptPrinter).self))
    }

    @Test func aFailedLazyInjectIsRecordedWhenItIsResolved() throws {
        DependencyInjector.current.register(ReceiptPrinterStub() as any ReceiptPrinter)
        let receipt = Receipt()  // nothing fails yet
        var error: InjectionError?
        let issues = recordedIssues { error = receipt.$archive.failure }

        let recorded = try #require(issues.first)
        #expect(issues.count == 1)
        #expect(
            recorded.comments == [
                recordedMessage("@LazyInject", line: Receipt.archiveLine, error: error, ownRegistrations: 1)
            ])
        #expect(recorded.line == Receipt.archiveLine)
        #expect(error != nil)
    }

    @Test func aBrokenRegistrationBehindAnOptionalInjectIsRecorded() throws {
        DependencyInjector.current.register(ReceiptPrinterStub() as any ReceiptPrinter)
        DependencyInjector.current.register(Stamp.self) { r in
            _ = try r.resolve(Int.self, name: "ink")
            return Stamp()
        }
        var stamp: Stamp?
        var error: InjectionError?
        let issues = recordedIssues {
            let receipt = Receipt()
            (stamp, error) = (receipt.stamp, receipt.$stamp.failure)
        }

        let recorded = try #require(issues.first)
        #expect(issues.count == 1)
        #expect(
            recorded.comments == [
                recordedMessage("@OptionalInject", line: Receipt.stampLine, error: error, ownRegistrations: 2)
            ])
        #expect(recorded.line == Receipt.stampLine)
        #expect(stamp == nil)
        #expect(error != nil)
    }

    /// Inside a factory, a failed `@Inject` fails the resolve: the test sees a typed error it
    /// can expect, and nothing is recorded, or this test would fail (issue 26).
    @Test func aFailedInjectInsideAFactoryFailsTheResolveAndRecordsNothing() {
        DependencyInjector.current.register(Receipt.self) { _ in Receipt() }

        #expect(throws: InjectionError.self) { try DependencyInjector.current.resolve(Receipt.self) }
    }

    /// `make` throws the failure of an object made by hand, and records nothing either.
    @Test func aFailedInjectInsideMakeIsThrownAndNotRecorded() {
        #expect(throws: InjectionError.self) { try DependencyInjector.current.make { Receipt() } }
    }

    @Test func failuresThatVerifyReportsAreNotRecordedAgain() {
        DependencyInjector.current.register(Receipt.self) { _ in Receipt() }
        let failures = DependencyInjector.current.verifyFailures
        #expect(failures.contains { $0.contains("ReceiptPrinter") })
    }
}

/// Outside an `InjectorTesting` scope a failed wrapper records nothing (or this test would fail):
/// the failure waits in `$property`.
@Test func aFailedWrapperOutsideATestScopeRecordsNothing() {
    #expect(Receipt().$printer.failure != nil)
}

struct ReceiptPrinterStub: ReceiptPrinter {}

extension Result {
    /// The error, or `nil` on success.
    var failure: Failure? {
        guard case .failure(let error) = self else { return nil }
        return error
    }
}

extension DependencyInjector {
    /// The descriptions of what `verify()` finds, or none.
    var verifyFailures: [String] {
        do {
            try verify()
            return []
        } catch {
            return [String(describing: error)]
        }
    }
}

/// An object made in a test's scope, whose `@LazyInject` first resolves in a detached task the
/// test awaits, fails that test (TestingInParallel.md: "a wrapper that fails records an issue on
/// the running test at once … a `LazyInject` when it first resolves"; DESIGN principle 1: "fails
/// that test, never the run"). The trait is run by hand, so that an issue recorded when its scope
/// ends is caught here too.
@Suite struct DetachedLazyInjectRecordingTests {
    @Test
    func aLazyInjectFirstResolvedInADetachedTaskIsRecordedOnTheTest() async throws {
        let trait: InjectingTrait = .injecting()
        let test = try #require(Test.current)
        let issues = Collected<Issue>()
        try await withKnownIssue {
            try await trait.provideScope(for: test, testCase: Test.Case.current) {
                let owner = StrictModeTests.LazyReceipts()  // nothing registered for its receipts
                let result = await Task.detached { owner.$receipts }.value
                #expect(result.failure != nil)  // `$property`: the error, without stopping
            }
        } matching: { issue in
            issues.append(issue)
            return true
        }
        #expect(issues.values.count == 1)
        // At the property's declaration.
        #expect(issues.values.first?.sourceLocation?.fileID == "InjectorTestingTests/StrictModeTests.swift")
    }
}
