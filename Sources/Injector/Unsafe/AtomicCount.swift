import Synchronization

/// A count read with no lock: how many of something have been made, or are in progress, in
/// the process, so that a caller can skip work that can find nothing while it is zero (whether
/// any test recorder or installation was ever made; how many async builders run now). Before
/// `Synchronization` it always reads as non-zero, so callers do the work they would skip.
final class AtomicCount: @unchecked Sendable {
    // `@unchecked Sendable`: `word` (an `Atomic<Int>`) is touched only atomically.
    private let word: UnsafeMutableRawPointer

    init() {
        word = .allocate(byteCount: MemoryLayout<Int>.size, alignment: MemoryLayout<Int>.alignment)
        if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
            word.bindMemory(to: Atomic<Int>.self, capacity: 1).initialize(to: Atomic(0))
        }
    }

    deinit {
        word.deallocate()
    }

    /// One more (sequentially consistent, as is `isZero`'s load: a thread that counts one and
    /// then looks for it, in its task-locals say, finds its own; and a reader that sees the
    /// count sees what was done before it).
    func increment() {
        guard #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) else { return }
        word.assumingMemoryBound(to: Atomic<Int>.self).pointee.wrappingAdd(1, ordering: .sequentiallyConsistent)
    }

    /// One more, and the count it makes: a number no other call gets (relaxed: only its
    /// uniqueness and each thread's order count). `nil` before `Synchronization`, where the
    /// caller counts under a lock instead.
    func incremented() -> Int? {
        guard #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) else { return nil }
        return word.assumingMemoryBound(to: Atomic<Int>.self).pointee.wrappingAdd(1, ordering: .relaxed).newValue
    }

    /// One fewer.
    func decrement() {
        guard #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) else { return }
        word.assumingMemoryBound(to: Atomic<Int>.self).pointee.wrappingSubtract(1, ordering: .sequentiallyConsistent)
    }

    /// Whether the count is zero; always `false` before `Synchronization`.
    var isZero: Bool {
        guard #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) else { return false }
        return word.assumingMemoryBound(to: Atomic<Int>.self).pointee.load(ordering: .sequentiallyConsistent) == 0
    }
}
