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
/// The scope is a plain child of `DependencyInjector.current`, bound as `current` and
/// observed while `body` runs: resolves through `current`, `@Inject` and the other wrappers,
/// and the factories they run, are seen. It shares the singletons and scoped values of
/// `current` (a singleton the test made before is read, not made again, and one made in `body`
/// stays); what `body` registers into `current` is the child's, gone when it returns. A resolve
/// through an injector captured before the scope is not seen.
public func expectNoResolution<T, Result>(
    of type: T.Type,
    name: String? = nil,
    sourceLocation: SourceLocation = #_sourceLocation,
    during body: () throws -> Result
) rethrows -> Result {
    let key = DependencyKey(type, name: name)
    let resolutions = ResolutionLog()
    // Not a test scope (`withOverrides`), whose own singletons would be made again in `body`,
    // their factories' resolves observed.
    let scope = DependencyInjector.current.child()
    scope.observe { event in
        if event.key == key, event.outcome.isResolution { resolutions.record(event) }
    }
    let result = try DependencyInjector.$current.withValue(scope) { try body() }
    let seen = resolutions.events
    if !seen.isEmpty {
        let paths = seen.map { $0.path.map(\.description).joined(separator: " → ") }
        let times = seen.count == 1 ? "once" : "\(seen.count) times"
        let message =
            "Injector: \(key) was resolved \(times) in the body of expectNoResolution, which expected none: "
            + "\(paths.joined(separator: "; "))."
        Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation)
    }
    return result
}

extension ResolutionEvent.Outcome {
    /// Whether the event is a resolve (not a refused registration).
    fileprivate var isResolution: Bool {
        if case .refused = self { return false }
        return true
    }
}
