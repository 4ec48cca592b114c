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

    /// An `InjectorTestCase` that catches the failures whose description contains `marker`,
    /// to check them, and reports every other failure as usual.
    class FailureCatchingTestCase: InjectorTestCase {
        /// What the caught failures say, where, in order.
        private(set) var caught: [(description: String, file: String, line: Int)] = []

        /// The text a failure must contain to be caught.
        var marker: String { "" }

        #if canImport(Darwin)
            override func record(_ issue: XCTIssue) {
                guard issue.compactDescription.contains(marker) else { return super.record(issue) }
                caught.append(
                    (
                        issue.compactDescription, issue.sourceCodeContext.location?.fileURL.path ?? "",
                        issue.sourceCodeContext.location?.lineNumber ?? 0
                    ))
            }
        #else
            override func recordFailure(
                withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool
            ) {
                guard description.contains(marker) else {
                    return super.recordFailure(
                        withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
                }
                caught.append((description, filePath, lineNumber))
            }
        #endif
    }
#endif
