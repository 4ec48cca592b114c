/// An injector's diagnostics state; while `instrumentation` is `nil`, a resolve pays one load and branch.
struct RegistryDiagnostics {
    /// Set while resolves through this injector are observed (or verified); `nil` otherwise.
    var instrumentation: Instrumentation?

    /// Who resolved whom, as this injector has seen it so far.
    var edges: Set<DependencyGraph.Edge> = []
}

/// What an instrumented resolve does besides resolving: records the edge, calls `observer`.
final class Instrumentation: Sendable {
    let observer: Observer?

    init(observer: Observer?) {
        self.observer = observer
    }

    /// Calls the observer, if any, with `event`. (Called through its holder, which keeps it
    /// alive: the observer is not retained for the call.)
    func tell(_ event: ResolutionEvent) {
        observer?(event)
    }
}

/// What ``DependencyInjector/observe(_:)`` calls after each resolve.
typealias Observer = @Sendable (ResolutionEvent) -> Void
