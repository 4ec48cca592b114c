/// The actor face's closes that wait for another injector's close, process-wide: a close
/// called in a teardown of one injector's close (`from`, which waits for it meanwhile), of an
/// injector whose close runs already (`to`, which it waits for), or which it runs itself. A
/// wait that would close a cycle is refused: two closes that close each other in their
/// teardowns, on one task or two, would each wait for the other for ever. The refused close
/// goes on without waiting, and the cycle ends.
final class CloseWaits: Sendable {
    static let shared = CloseWaits()

    /// Who waits for whom, an edge per close in progress (a close may start several, from
    /// tasks a teardown started).
    private let edges = Locked<[(from: ObjectIdentifier, to: ObjectIdentifier)]>([])

    /// Records that `from`'s close waits for `to`'s, unless `to`'s waits, through others, for
    /// `from`'s: then `false`, and nothing is recorded.
    func admit(from: ObjectIdentifier, to: ObjectIdentifier) -> Bool {
        edges.withLock { edges in
            var reached: Set<ObjectIdentifier> = [to]
            var frontier = [to]
            while let next = frontier.popLast() {
                if next == from { return false }
                for edge in edges where edge.from == next && reached.insert(edge.to).inserted {
                    frontier.append(edge.to)
                }
            }
            edges.append((from, to))
            return true
        }
    }

    /// Ends what `admit(from:to:)` recorded.
    func remove(from: ObjectIdentifier, to: ObjectIdentifier) {
        edges.withLock { edges in
            if let index = edges.firstIndex(where: { $0.from == from && $0.to == to }) { edges.remove(at: index) }
        }
    }
}
