#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// State guarded by a heap-allocated `pthread_mutex_t`, with a condition variable for the few
/// callers that wait for another thread (singleton creation).
///
/// This is the package's one lock type. The mutex and condition live behind stable pointers
/// (never inline and addressed with `&`), and the mutex is *not* recursive: no caller holds it
/// while user code runs, so nothing ever needs to re-enter it. User code includes a factory,
/// and also the `deinit` of any value released: a write that replaces or removes a value goes
/// through `update(_:)`, which releases it after the unlock.
///
/// The state lives behind a pointer as well. As a stored `var` of a class, every `inout`
/// access to it would pay a run-time exclusivity check (`swift_beginAccess`/`swift_endAccess`,
/// about a tenth of a resolve) that the mutex already makes redundant.
final class Locked<State>: @unchecked Sendable {
    // `state.pointee` is read and written only between `pthread_mutex_lock(mutex)` and
    // `pthread_mutex_unlock(mutex)`, inside `withLock` and `withLockWaiting`. That is what
    // makes the `@unchecked Sendable` honest.
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

    /// Runs `body` with exclusive access to the state. `body` must not call user code, nor
    /// release a value stored in the state: use `update(_:)` for that.
    @inline(__always)
    func withLock<Result, Failure: Error>(_ body: (inout State) throws(Failure) -> Result) throws(Failure) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&state.pointee)
    }

    /// Locks, and returns the state for use until ``unlock()``.
    ///
    /// Only for the resolve's lookup, which must either return a value copied out under the
    /// lock or go on, unlocked, to run a factory: a `withLock` closure could say "no value"
    /// only with an optional of a generic type, whose metadata lookup costs more than the
    /// lookup itself. Everything else uses `withLock`.
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

    /// Runs `body`, which changes the state and returns what the change took out of it (the
    /// values it replaced or removed), and releases that only after the unlock.
    ///
    /// ```swift
    /// registry.update { exchange(&$0[key], with: entry) }
    /// ```
    ///
    /// Releasing a value runs its `deinit`, which is user code and may call back into the
    /// injector, and so take this lock again: released inside, it would deadlock. A replaced
    /// factory counts too, since its closure holds the values it captured.
    @inline(__always)
    func update<Removed>(_ body: (inout State) -> Removed) {
        let removed = withLock(body)
        // Dropped here, when `withLock` has already unlocked; not earlier, which an optimiser
        // shortening lifetimes might otherwise choose.
        withExtendedLifetime(removed) {}
    }

    /// Runs `body` under the lock until it returns a value, sleeping between tries until
    /// another thread calls `signalAll()`.
    ///
    /// `body` returns `nil` to wait. Each call is its own access to the state, so nothing read
    /// before the wait is assumed to hold after it (wake-ups can also be spurious).
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
