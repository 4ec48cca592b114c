/// Which shared singleton creations are waiting for which, to report a cycle that runs
/// through creations in different tasks instead of waiting forever.
///
/// A cycle within one task's chain (`A → B → A`) is found from the task-local path alone. But
/// each singleton is created in a task of its own, and two resolves that start at different
/// ends of a cycle at the same time (one creating `A`, which waits for `B`; one creating `B`,
/// which waits for `A`) each see only their own half. So before a resolve waits for a
/// creation, it follows the creations that one waits for; if the walk reaches a creation that
/// the resolve is itself part of, waiting would never end, and it reports the cycle. The check
/// and the recording of the new wait happen under one lock, so two halves that arrive together
/// cannot both miss each other.
///
/// Process-wide, like the sync injector's `SingletonCreation.shared`, because a factory may
/// resolve from any injector. Its lock is held only for this bookkeeping.
final class AsyncWaitGraph: Sendable {
    static let shared = AsyncWaitGraph()

    /// One wait: the innermost creation a task works for, waiting for another creation.
    struct Edge: Sendable {
        fileprivate let id: UInt64
        fileprivate let waiter: ObjectIdentifier
        fileprivate let target: AsyncCreation
        /// The keys from the waiting creation's key (exclusive) to the target's (inclusive).
        fileprivate let keys: [DependencyKey]
    }

    enum Admission {
        /// Waiting is safe; the wait is recorded as `edge` (none when the waiting task works
        /// for no creation, as nothing can wait for it).
        case admitted(Edge?)
        /// Waiting would close this cycle.
        case cycle([DependencyKey])
    }

    private struct State {
        var edges: [ObjectIdentifier: [Edge]] = [:]
        var nextEdge: UInt64 = 0
    }

    // `State` is read and written only inside `state.withLock`.
    private let state = Locked(State())

    /// Records that a task whose resolutions in progress are `frames` waits for `target`,
    /// unless that closes a cycle.
    func admit(_ frames: [AsyncResolutionPath.Frame], toWaitFor target: AsyncCreation) -> Admission {
        let path = frames.map(\.registration.key) + [target.registration.key]
        let ours = Set(frames.compactMap { $0.creation.map(ObjectIdentifier.init) })
        return state.withLock { state in
            if let cycle = Self.cycle(from: target, path: path, closingAt: ours, edges: state.edges) {
                return .cycle(cycle)
            }
            guard let index = frames.lastIndex(where: { $0.creation != nil }), let waiter = frames[index].creation
            else { return .admitted(nil) }
            let edge = Edge(
                id: state.nextEdge,
                waiter: ObjectIdentifier(waiter),
                target: target,
                keys: frames[(index + 1)...].map(\.registration.key) + [target.registration.key]
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

    /// The path of the cycle that waiting for `target` would close, or `nil` when every chain
    /// of waits from `target` ends without reaching one of `ours`.
    private static func cycle(
        from target: AsyncCreation,
        path: [DependencyKey],
        closingAt ours: Set<ObjectIdentifier>,
        edges: [ObjectIdentifier: [Edge]]
    ) -> [DependencyKey]? {
        if ours.contains(ObjectIdentifier(target)) { return path }
        var visited: Set<ObjectIdentifier> = [ObjectIdentifier(target)]
        var pending = [(creation: ObjectIdentifier(target), path: path)]
        while let (creation, path) = pending.popLast() {
            for edge in edges[creation] ?? [] {
                let next = ObjectIdentifier(edge.target)
                let extended = path + edge.keys
                if ours.contains(next) { return extended }
                if visited.insert(next).inserted { pending.append((next, extended)) }
            }
        }
        return nil
    }
}
