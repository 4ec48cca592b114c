import Synchronization

/// A flag raised once and never lowered, read with no lock: a fact about the process that
/// lets a caller skip work that could find nothing until it holds (see
/// `TestIssueRecorder.currentIfAnyMade`). Before `Synchronization` it always reads as raised,
/// so callers do the work they would skip.
final class Latch: @unchecked Sendable {
    // `@unchecked Sendable`: `word` (an `Atomic<Bool>`) is touched only atomically.
    private let word: UnsafeMutableRawPointer

    init() {
        word = .allocate(byteCount: MemoryLayout<UInt>.size, alignment: MemoryLayout<UInt>.alignment)
        if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
            word.bindMemory(to: Atomic<Bool>.self, capacity: 1).initialize(to: Atomic(false))
        }
    }

    deinit {
        word.deallocate()
    }

    /// Raises the flag (a release store, so that a reader that sees it sees what came before).
    func raise() {
        guard #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) else { return }
        word.assumingMemoryBound(to: Atomic<Bool>.self).pointee.store(true, ordering: .releasing)
    }

    /// Whether the flag was raised; always `true` before `Synchronization`.
    var isRaised: Bool {
        guard #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) else { return true }
        return word.assumingMemoryBound(to: Atomic<Bool>.self).pointee.load(ordering: .acquiring)
    }
}
