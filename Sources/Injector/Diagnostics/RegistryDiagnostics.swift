/// An injector's diagnostics state; while `instrumentation` is `nil`, a resolve pays one load and branch.
struct RegistryDiagnostics {
    /// Set while resolves through this injector are observed (or verified); `nil` otherwise.
    var instrumentation: Instrumentation?

    /// Who resolved whom, as this injector has seen it so far.
    var edges: Set<DependencyGraph.Edge> {
        get { seenEdges ?? .init() }
        _modify {
            // Moved out and back: changed in place, not copied.
            var edges = seenEdges.take() ?? .init()
            defer { seenEdges = edges }
            yield &edges
        }
    }

    /// `edges`, `nil` until the first is recorded: only observed or verified injectors record
    /// any, and the release of every other (each opened scope) then releases no empty set.
    private var seenEdges: Set<DependencyGraph.Edge>?
}

/// What an instrumented resolve does besides resolving: records the edge, calls `observer`.
final class Instrumentation: Sendable {
    let observer: Observer?
    /// The observation `DependencyInjector.observing(_:during:)` added on top of another, if this is one.
    let link: ObservingLink?

    init(observer: Observer?, link: ObservingLink? = nil) {
        self.observer = observer
        self.link = link
    }

    /// Calls the observer, if any, with `event`. (Called through its holder, which keeps it
    /// alive: the observer is not retained for the call.)
    func tell(_ event: ResolutionEvent) {
        observer?(event)
    }
}

/// What ``DependencyInjector/observe(_:)`` calls after each resolve.
typealias Observer = @Sendable (ResolutionEvent) -> Void

/// An observer that `DependencyInjector.observing(_:during:)` adds for the length of a body, on
/// top of the instrumentation installed before (`previous`, told of every event too). Once the
/// body returns it is inactive, and dropped from the top of the chain as soon as no active one
/// sits above it: two that overlap without nesting each end, and what was installed comes back.
final class ObservingLink: Sendable {
    let previous: Instrumentation?
    private let observer: Observer
    private let active = Locked(true)

    init(previous: Instrumentation?, observer: @escaping Observer) {
        self.previous = previous
        self.observer = observer
    }

    var isActive: Bool { active.withLock { $0 } }

    func deactivate() {
        active.withLock { $0 = false }
    }

    func tell(_ event: ResolutionEvent) {
        previous?.tell(event)
        if isActive { observer(event) }
    }
}
