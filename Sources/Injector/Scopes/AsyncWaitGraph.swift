/// Which creations of shared values (singletons, scoped, `.graph` and cached values) are
/// waiting for which, to report a cycle that runs through creations in different tasks
/// instead of waiting forever.
///
/// Two resolves that start at different ends of a cycle at once (creating `A`, which waits
/// for `B`; creating `B`, which waits for `A`) each see only their half in their task-local
/// path. So before a resolve waits for a creation, it follows the waits from there, and
/// reports a cycle if they reach a creation it is part of; check and record happen under one
/// lock. Process-wide, like `SingletonCreation.shared`.
final class AsyncWaitGraph: Sendable {
    static let shared = AsyncWaitGraph()

    /// One wait: the innermost creation a task works for, waiting for another creation.
    struct Edge: Sendable {
        fileprivate let id: UInt64
        /// The waiting creation: it may end, and be freed, before this wait does.
        fileprivate let waiter: AsyncSingletonCreation.Number
        fileprivate let target: AsyncSingletonCreation
        /// The keys from the waiting creation's key (exclusive) to the target's (inclusive).
        fileprivate let keys: [DependencyKey]
    }

    enum Admission {
        /// Waiting is safe; the wait is recorded as `edge` (none if the task works for no creation).
        case admitted(Edge?)
        /// Waiting would close this cycle.
        case cycle([DependencyKey])
    }

    private struct State {
        /// The waits of each creation, by its number.
        var edges: [AsyncSingletonCreation.Number: [Edge]] = [:]
        var nextEdge: UInt64 = 0
    }

    private let state = Locked(State())

    /// Records that a task with `frames` in progress waits for `target`, unless that closes a
    /// cycle. `frames` must not hold `target`'s registration (the caller checks that).
    func admit(_ frames: AsyncResolutionContext.Frames, toWaitFor target: AsyncSingletonCreation) -> Admission {
        // Outside the lock: the walk to the innermost creation, usually a level or two.
        let innermost = frames.innermostCreation
        return state.withLock { state in
            if let cycle = Self.cycle(from: target, closingAt: frames, edges: state.edges) {
                return .cycle(cycle)
            }
            guard let (waiter, keysInside) = innermost else { return .admitted(nil) }
            let edge = Edge(
                id: state.nextEdge,
                waiter: waiter,
                target: target,
                keys: keysInside + [target.registration.key]
            )
            state.nextEdge += 1
            state.edges[edge.waiter, default: []].append(edge)
            return .admitted(edge)
        }
    }

    /// Forgets a wait that has ended.
    func remove(_ edge: Edge) {
        state.withLock { state in
            state.edges[edge.waiter]?.removeAll { $0.id == edge.id }
            if state.edges[edge.waiter]?.isEmpty == true { state.edges[edge.waiter] = nil }
        }
    }

    /// The path of the cycle that waiting for `target` would close, or `nil` when no chain of
    /// waits from `target` reaches a creation that `frames` run. Each wait followed costs a
    /// lookup in the frames' set of registrations, not a walk of them: a deep chain of
    /// creations, each admitted while the ones below it wait, stays linear.
    private static func cycle(
        from target: AsyncSingletonCreation,
        closingAt frames: AsyncResolutionContext.Frames,
        edges: [AsyncSingletonCreation.Number: [Edge]]
    ) -> [DependencyKey]? {
        let start = target.number
        // How the walk first reached each creation: the wait it followed (none for `target`).
        var reachedBy: [AsyncSingletonCreation.Number: Edge?] = [start: nil]
        var pending = [start]
        while let creation = pending.popLast() {
            for edge in edges[creation] ?? [] {
                if frames.runs(edge.target) {
                    return frames.keys + [target.registration.key] + keys(to: edge, reachedBy: reachedBy, from: target)
                }
                let next = edge.target.number
                if reachedBy[next] == nil {
                    reachedBy[next] = edge
                    pending.append(next)
                }
            }
        }
        return nil
    }

    /// The keys along the waits the walk followed from its start, `start`, to `last`, inclusive.
    private static func keys(
        to last: Edge,
        reachedBy: [AsyncSingletonCreation.Number: Edge?],
        from start: AsyncSingletonCreation
    ) -> [DependencyKey] {
        var chain = [last]
        var waiter = last.waiter
        while case .some(let previous?) = reachedBy[waiter] {
            chain.append(previous)
            waiter = previous.waiter
        }
        var keys = chain.reversed().flatMap(\.keys)
        // A start made by a run inside its creation (a value cached by argument, see
        // `Frames.runs`) is among the first wait's keys: the path goes on after it.
        if let inside = chain.last?.keys.firstIndex(of: start.registration.key) { keys.removeFirst(inside + 1) }
        return keys
    }
}
