/// The package's one lock: state guarded by a heap-allocated, non-recursive mutex
/// (`PlatformMutex`), and a condition for callers that wait for another thread. No user code runs under it, not
/// even a released value's `deinit` (see `update(_:)`). The state lives behind a pointer: as
/// a stored `var`, each `inout` access would pay an exclusivity check (a tenth of a resolve).
@usableFromInline
final class Locked<State>: @unchecked Sendable {
    // `@unchecked Sendable`: `state.pointee` is touched only while `mutex` is locked.
    private let state: UnsafeMutablePointer<State>
    private let mutex: PlatformMutex

    /// The mutex, its condition and the state share one allocation (the mutex first): a lock
    /// is made for every opened scope, where four allocations per lock were a third of the cost.
    init(_ state: State) {
        let stateOffset =
            (PlatformMutex.byteCount + MemoryLayout<State>.alignment - 1) / MemoryLayout<State>.alignment
            * MemoryLayout<State>.alignment
        let block = RawMemory.allocate(
            byteCount: stateOffset + MemoryLayout<State>.size,
            alignment: max(PlatformMutex.alignment, MemoryLayout<State>.alignment))
        mutex = PlatformMutex(at: block)
        self.state = (block + stateOffset).bindMemory(to: State.self, capacity: 1)
        self.state.initialize(to: state)
    }

    deinit {
        state.deinitialize(count: 1)
        mutex.destroy()
        RawMemory.deallocate(mutex.memory)
    }

    /// Runs `body`, which must not call user code nor release a stored value, under the lock.
    @inline(__always)
    func withLock<Result, Failure: Error>(_ body: (inout State) throws(Failure) -> Result) throws(Failure) -> Result {
        mutex.lock()
        defer { mutex.unlock() }
        return try body(&state.pointee)
    }

    /// Locks, and returns the state for use until ``unlock()``. Only for the resolve's lookup,
    /// which returns from under the lock without an `Optional<T>` (see `resolve(_:name:)`).
    @inline(__always)
    func lock() -> UnsafeMutablePointer<State> {
        mutex.lock()
        return state
    }

    /// Unlocks what ``lock()`` locked.
    @inline(__always)
    func unlock() {
        mutex.unlock()
    }

    /// Runs `body`, which changes the state and returns what it took out (the values it
    /// replaced or removed), and releases that after the unlock: a `deinit` is user code that
    /// may take this lock again. A replaced factory counts too (its closure holds values).
    /// For example: `registry.update { $0.replace(key, with: entry) }`.
    @inline(__always)
    func update<Removed>(_ body: (inout State) -> Removed) {
        let removed = withLock(body)
        // Dropped here, after the unlock, not earlier as a shortened lifetime might be.
        withExtendedLifetime(removed) {}
    }

    /// Runs `body` under the lock until it returns a value, sleeping between tries (`nil`)
    /// until `signalAll()`. Nothing read before a wait holds after it; wake-ups may be spurious.
    func withLockWaiting<Result>(until body: (inout State) -> Result?) -> Result {
        mutex.lock()
        defer { mutex.unlock() }
        while true {
            if let result = body(&state.pointee) { return result }
            mutex.wait()
        }
    }

    /// Wakes every thread sleeping in `withLockWaiting(until:)` so it tries again.
    func signalAll() {
        mutex.lock()
        defer { mutex.unlock() }
        mutex.broadcast()
    }
}

extension Locked where State == Registry {
    /// `update(_:)` for a registry, which also frees, after the unlock, the published tables
    /// of ready values that the change withdrew (see `PublishedTable`), before what it removed.
    /// Apart, for the stack: inlined, the wait for readers enlarged the frame of every level
    /// of a chain of singletons (which keeps its value through here).
    @inline(never)
    func update<Removed>(_ body: (inout Registry) -> Removed) {
        withExtendedLifetime(updateReturning(body)) {}
    }

    /// `update(_:)` that hands what `body` removed to the caller (to tear down, then release),
    /// once the withdrawn tables are freed.
    @inline(never)
    func updateReturning<Removed>(_ body: (inout Registry) -> Removed) -> Removed {
        let (removed, retired) = withLock { registry in (body(&registry), registry.ready.takeRetired()) }
        retired.reclaim()
        return removed
    }
}
