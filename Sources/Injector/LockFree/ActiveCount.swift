import Synchronization

/// How many of something are in progress in the process, read with no lock: lets a caller
/// skip work that can find nothing while none is (see `AsyncWrapperCapture.isBuilding`).
/// Before `Synchronization` it always reads as busy, so callers do the work they would skip.
final class ActiveCount: @unchecked Sendable {
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

    /// One more in progress (sequentially consistent, as is `isIdle`'s load: a thread that
    /// starts one and then looks for it in its task-locals sees its own).
    func begin() {
        guard #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) else { return }
        word.assumingMemoryBound(to: Atomic<Int>.self).pointee.wrappingAdd(1, ordering: .sequentiallyConsistent)
    }

    /// One fewer in progress.
    func end() {
        guard #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) else { return }
        word.assumingMemoryBound(to: Atomic<Int>.self).pointee.wrappingSubtract(1, ordering: .sequentiallyConsistent)
    }

    /// Whether none is in progress; always `false` before `Synchronization`.
    var isIdle: Bool {
        guard #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) else { return false }
        return word.assumingMemoryBound(to: Atomic<Int>.self).pointee.load(ordering: .sequentiallyConsistent) == 0
    }
}
