/// What `close()` throws when teardowns failed: every failure, in the order the teardowns ran.
/// Every teardown ran, whichever threw before it.
///
/// ```swift
/// do {
///     try await server.close()
/// } catch {
///     for failure in error.failures { log("\(failure.key): \(failure.error)") }
/// }
/// ```
///
/// A teardown that failed when its value was replaced, unregistered or reset (calls that do not
/// throw) is reported here by the injector's next `close()`, and recorded on the running test
/// (as `notProvidedInTest` is: in any Swift Testing test or XCTest case whose process links
/// `InjectorTesting`), at the line of the registration whose teardown threw.
public struct TeardownError: Error, Sendable, CustomStringConvertible {
    /// One teardown that threw.
    public struct Failure: Sendable {
        /// The registration whose value was being closed.
        public let key: DependencyKey
        /// What the teardown threw.
        public let error: any Error
        /// Where the registration was made, for the issue a test records.
        let site: DeclarationSite?
    }

    /// Every teardown that threw, in the order they ran (reverse creation order).
    public let failures: [Failure]

    /// One line per failure, and what to do.
    public var description: String {
        let count = failures.count == 1 ? "1 teardown" : "\(failures.count) teardowns"
        var lines = ["Injector ran every teardown, and \(count) threw:"]
        lines += failures.map { "- \($0.key): \(String(reflecting: $0.error))" }
        lines.append("To fix: make those teardowns succeed; the errors above are their own.")
        return lines.joined(separator: "\n")
    }
}
