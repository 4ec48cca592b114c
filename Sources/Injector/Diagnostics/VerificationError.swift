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
    /// The problems (at least one), found trying registrations in key order: `error.failures.map(\.path)`.
    public let failures: [InjectionError]

    /// How many registrations were checked: `error.registrationCount`.
    public let registrationCount: Int

    /// Creates the error for `failures` found among `registrationCount` registrations.
    ///
    /// ```swift
    /// let error = VerificationError(failures: [failure], registrationCount: 4)
    /// ```
    public init(failures: [InjectionError], registrationCount: Int) {
        self.failures = failures
        self.registrationCount = registrationCount
    }

    /// A numbered list of the failures' messages, under a line that counts them: `print(error)`.
    public var description: String {
        let problems = failures.count == 1 ? "1 problem" : "\(failures.count) problems"
        let registrations = registrationCount == 1 ? "1 registration" : "\(registrationCount) registrations"
        var lines = ["Injector found \(problems) in \(registrations):"]
        for (index, failure) in failures.enumerated() {
            let marker = "\(index + 1). "
            let indent = String(repeating: " ", count: marker.count)
            let message = failure.description.split(separator: "\n", omittingEmptySubsequences: false)
            lines.append("")
            for (line, text) in message.enumerated() {
                lines.append((line == 0 ? marker : indent) + text)
            }
        }
        return lines.joined(separator: "\n")
    }
}
