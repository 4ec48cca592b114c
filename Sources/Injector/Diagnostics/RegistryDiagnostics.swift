/// An injector's diagnostics state, kept in its registry under the registry's lock.
///
/// `instrumentation` is read by every resolve together with the registration, so while it is
/// `nil` (the default) diagnostics cost one load and one branch and nothing else.
struct RegistryDiagnostics {
    /// Set while resolves through this injector are observed (or verified); `nil` otherwise.
    var instrumentation: Instrumentation?

    /// Who resolved whom, as this injector has seen it so far.
    var edges: Set<DependencyGraph.Edge> = []
}

/// What an instrumented resolve does besides resolving: record the edge from its resolver,
/// and call `observer`, if any, with the outcome.
final class Instrumentation: Sendable {
    let observer: Observer?

    init(observer: Observer?) {
        self.observer = observer
    }
}

/// What ``DependencyInjector/observe(_:)`` calls after each resolve.
typealias Observer = @Sendable (ResolutionEvent) -> Void
