import Injector

protocol PaymentService: Sendable {
    func charge(_ cents: Int) -> String
}

struct MockPayments: PaymentService {
    let id: Int
    func charge(_ cents: Int) -> String { "mock \(id) charged \(cents)" }
}

final class Checkout {
    @Inject var payments: any PaymentService
    func pay() -> String { payments.charge(100) }
}

protocol Mailer: Sendable {
    func send() -> String
}

struct MockMailer: Mailer {
    let id: Int
    func send() -> String { "mock \(id) sent" }
}

/// Resolves its mailer through `AsyncDependencyInjector.current`, as async code does.
func signUp() async throws -> String {
    try await AsyncDependencyInjector.current.resolve((any Mailer).self).send()
}

#if canImport(XCTest)
    import InjectorTesting
    import XCTest

    /// Failures caught by a test case, to check them: those whose description contains
    /// `marker`; the case reports every other failure as usual.
    final class CaughtFailures {
        /// What the caught failures say, where, in order.
        private(set) var all: [(description: String, file: String, line: Int)] = []
        let marker: String

        init(marker: String) {
            self.marker = marker
        }

        /// Whether the failure is caught (kept here, not reported).
        func catches(_ description: String, file: String, line: Int) -> Bool {
            guard description.contains(marker) else { return false }
            all.append((description, file, line))
            return true
        }
    }

    /// An `InjectorTestCase` that catches the failures whose description contains `marker`,
    /// to check them, and reports every other failure as usual.
    class FailureCatchingTestCase: InjectorTestCase {
        /// The text a failure must contain to be caught.
        var marker: String { "" }
        private lazy var failures = CaughtFailures(marker: marker)

        /// What the caught failures say, where, in order.
        var caught: [(description: String, file: String, line: Int)] { failures.all }

        #if canImport(Darwin)
            override func record(_ issue: XCTIssue) {
                let location = issue.sourceCodeContext.location
                guard
                    failures.catches(
                        issue.compactDescription, file: location?.fileURL.path ?? "", line: location?.lineNumber ?? 0)
                else { return super.record(issue) }
            }
        #else
            override func recordFailure(
                withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool
            ) {
                guard failures.catches(description, file: filePath, line: lineNumber) else {
                    return super.recordFailure(
                        withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
                }
            }
        #endif
    }
#endif
