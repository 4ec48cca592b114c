/// Every problem ``DependencyInjector/verify()`` found, each with its resolution path.
///
/// ```swift
/// do {
///     try injector.verify()
/// } catch {
///     print(error)  // "Injector found 3 problems in 12 registrations: …", one numbered entry each
///     for failure in error.failures { report(failure.key, failure.path) }
/// }
/// ```
///
/// A problem reached from several registrations is reported once, with the longest path
/// (`App → Checkout → PaymentService`, not also `Checkout → PaymentService`).
public struct VerificationError: Error, Sendable, CustomStringConvertible {
    /// The problems found trying registrations in key order: `error.failures.map(\.path)`.
    /// Empty only when every problem is a teardown's (``teardownFailures``).
    public let failures: [InjectionError]

    /// How many registrations were checked: `error.registrationCount`.
    public let registrationCount: Int

    /// The teardowns that threw when `verify()` let go of what it made, in the order they ran:
    /// `for failure in error.teardownFailures { log(failure.key, failure.error) }`.
    public let teardownFailures: [TeardownError.Failure]

    /// Creates the error for `failures` found among `registrationCount` registrations, and the
    /// `teardownFailures` of what the check made.
    ///
    /// ```swift
    /// let error = VerificationError(failures: [failure], registrationCount: 4)
    /// ```
    public init(
        failures: [InjectionError],
        registrationCount: Int,
        teardownFailures: [TeardownError.Failure] = []
    ) {
        self.failures = failures
        self.registrationCount = registrationCount
        self.teardownFailures = teardownFailures
    }

    /// A numbered list of the problems' messages (a teardown's last), under a line that counts
    /// them: `print(error)`.
    public var description: String {
        let messages =
            failures.map(\.description) + teardownFailures.map { TeardownError(failures: [$0]).description }
        let problems = messages.count == 1 ? "1 problem" : "\(messages.count) problems"
        let registrations = registrationCount == 1 ? "1 registration" : "\(registrationCount) registrations"
        var lines = ["Injector found \(problems) in \(registrations):"]
        for (index, failure) in messages.enumerated() {
            let marker = "\(index + 1). "
            let indent = String(repeating: " ", count: marker.count)
            let message = failure.split(separator: "\n", omittingEmptySubsequences: false)
            lines.append("")
            for (line, text) in message.enumerated() {
                lines.append((line == 0 ? marker : indent) + text)
            }
        }
        return lines.joined(separator: "\n")
    }
}
