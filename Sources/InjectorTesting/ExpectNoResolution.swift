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
/// The scope is a child of `DependencyInjector.current` (as in `withOverrides`),
/// observed while `body` runs: resolves through `current`, `@Inject` and the other wrappers,
/// and the factories they run, are seen. A resolve through an injector captured before the
/// scope is not.
public func expectNoResolution<T, Result>(
    of type: T.Type,
    name: String? = nil,
    sourceLocation: SourceLocation = #_sourceLocation,
    during body: () throws -> Result
) rethrows -> Result {
    let key = DependencyKey(type, name: name)
    let resolutions = ResolutionLog()
    let result = try DependencyInjector.current.withOverrides({ scope in
        scope.observe { event in
            if event.key == key, event.outcome.isResolution { resolutions.record(event) }
        }
    }) {
        try body()
    }
    let seen = resolutions.events
    if !seen.isEmpty {
        let paths = seen.map { $0.path.map(\.description).joined(separator: " → ") }
        Issue.record(
            "\(key) was resolved \(seen.count) time(s), expected none: \(paths.joined(separator: "; "))",
            sourceLocation: sourceLocation
        )
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
