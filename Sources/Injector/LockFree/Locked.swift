#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The package's one lock: state guarded by a heap-allocated, non-recursive `pthread_mutex_t`,
/// and a condition for callers that wait for another thread. No user code runs under it, not
/// even a released value's `deinit` (see `update(_:)`). The state lives behind a pointer: as
/// a stored `var`, each `inout` access would pay an exclusivity check (a tenth of a resolve).
final class Locked<State>: @unchecked Sendable {
    // `@unchecked Sendable`: `state.pointee` is touched only while `mutex` is locked.
    private let state: UnsafeMutablePointer<State>
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>

    init(_ state: State) {
        self.state = .allocate(capacity: 1)
        self.state.initialize(to: state)
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        condition = .allocate(capacity: 1)
        condition.initialize(to: pthread_cond_t())
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        condition.deinitialize(count: 1)
        condition.deallocate()
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
        state.deinitialize(count: 1)
        state.deallocate()
    }

    /// Runs `body`, which must not call user code nor release a stored value, under the lock.
    @inline(__always)
    func withLock<Result, Failure: Error>(_ body: (inout State) throws(Failure) -> Result) throws(Failure) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&state.pointee)
    }

    /// Locks, and returns the state for use until ``unlock()``. Only for the resolve's lookup,
    /// which returns from under the lock without an `Optional<T>` (see `resolve(_:name:)`).
    @inline(__always)
    func lock() -> UnsafeMutablePointer<State> {
        pthread_mutex_lock(mutex)
        return state
    }

    /// Unlocks what ``lock()`` locked.
    @inline(__always)
    func unlock() {
        pthread_mutex_unlock(mutex)
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
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        while true {
            if let result = body(&state.pointee) { return result }
            pthread_cond_wait(condition, mutex)
        }
    }

    /// Wakes every thread sleeping in `withLockWaiting(until:)` so it tries again.
    func signalAll() {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        pthread_cond_broadcast(condition)
    }
}

extension Locked where State == Registry {
    /// `update(_:)` for a registry, which also frees, after the unlock, the published tables
    /// of ready values that the change withdrew (see `ReadyValues`), before what it removed.
    /// Apart, for the stack: inlined, the wait for readers enlarged the frame of every level
    /// of a chain of singletons (which keeps its value through here).
    @inline(never)
    func update<Removed>(_ body: (inout Registry) -> Removed) {
        let (removed, retired) = withLock { registry in (body(&registry), registry.ready.takeRetired()) }
        retired.reclaim()
        withExtendedLifetime(removed) {}
    }
}
