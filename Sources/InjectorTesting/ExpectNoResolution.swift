import Injector
public import Testing

/// Runs `body` in a scope of the current injector and records an issue if anything in it
/// resolved `type` (under `name`) through that scope.
///
/// ```swift
/// @Test(.injecting { $0.register(MockPayments() as any PaymentService) })
/// func browsingChargesNothing() throws {
///     try expectNoResolution(of: (any PaymentService).self) {
///         try Catalog().browse()
///     }
/// }
/// ```
///
/// In a test scope (the `.injecting` trait's, `withOverrides`'), that scope is observed while
/// `body` runs: resolves through `current`, `@Inject` and the other wrappers, and the factories
/// they run (a singleton's too, which the scope makes), are seen. Nothing is made again: a
/// singleton the test made before is read, and one made in `body` stays, as what `body`
/// registers does, until the test ends. Elsewhere, `body` runs in a plain child of `current`,
/// observed, and closed when it returns. A resolve on another thread than the body's (another
/// task of the test, a queue the body starts), or through an injector captured before, is not
/// seen.
public func expectNoResolution<T, Result>(
    of type: T.Type,
    name: String? = nil,
    sourceLocation: SourceLocation = #_sourceLocation,
    during body: () throws -> Result
) rethrows -> Result {
    let key = DependencyKey(type, name: name)
    let resolutions = ResolutionLog()
    // The body's resolves only: on its thread (a synchronous body's, where events arrive).
    let thread = DependencyInjector.threadIdentity
    let observer: @Sendable (ResolutionEvent) -> Void = { event in
        guard event.key == key, event.outcome.isResolution, DependencyInjector.threadIdentity == thread else { return }
        resolutions.record(event)
    }
    // Whether the body returns or throws: a resolve before the throw happened all the same.
    defer { recordIssue(ifResolved: resolutions.events, key: key, sourceLocation: sourceLocation) }
    let current = DependencyInjector.current
    if current.isTestScope {
        // The test's own scope, watched: a scope of its own (`withOverrides`) would make the
        // test's singletons again, and a child would not see the factories of those it makes.
        return try current.observing(observer, during: body)
    }
    let scope = current.child()
    scope.observe(observer)
    defer { scope.closeReportingFailures() }
    return try DependencyInjector.$current.withValue(scope) { try body() }
}

/// Records an issue at `sourceLocation` if `seen` holds resolves of `key`.
private func recordIssue(ifResolved seen: [ResolutionEvent], key: DependencyKey, sourceLocation: SourceLocation) {
    guard !seen.isEmpty else { return }
    let paths = seen.map { $0.path.map(\.description).joined(separator: " → ") }
    let times = seen.count == 1 ? "once" : "\(seen.count) times"
    let message =
        "Injector: \(key) was resolved \(times) in the body of expectNoResolution, which expected none: "
        + "\(paths.joined(separator: "; "))."
    Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation)
}

extension ResolutionEvent.Outcome {
    /// Whether the event is a resolve (not a refused registration).
    fileprivate var isResolution: Bool {
        if case .refused = self { return false }
        return true
    }
}
