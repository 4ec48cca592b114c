/// The package's one lock: state guarded by a non-recursive mutex (`PlatformMutex`), and a
/// condition for callers that wait for another thread, all in one object (`Storage`). No user
/// code runs under it, not even a released value's `deinit` (see `update(_:)`). The state is
/// reached through a pointer: as a stored `var`, each `inout` access would pay an exclusivity
/// check (a tenth of a resolve).
@usableFromInline
struct Locked<State>: @unchecked Sendable {
    // `@unchecked Sendable`: the state is touched only while the mutex is locked.
    /// The object that holds the state, the mutex and its condition: one allocation, which a
    /// lock is made in for every opened scope (the state in a block of its own was one more).
    let storage: Storage

    /// The mutex and its condition (the header, made zeroed, then set up in place) and the
    /// state (the one tail element), where they never move. The state is a tail element, not
    /// the header, so that it is moved in: `create` takes the header from a closure, which
    /// copied the whole state (a registry: a retain and a release of each of its references).
    /// Both are reached through their pointers, never as `header`: each access of a stored
    /// `var` would pay an exclusivity check (a tenth of a resolve).
    @usableFromInline
    final class Storage: ManagedBuffer<PlatformMutex.Memory, State> {
        /// The mutex and its condition, set up by `make(_:)` in the header.
        @inline(__always)
        var mutex: PlatformMutex {
            PlatformMutex(in: withUnsafeMutablePointerToHeader { $0 })
        }

        /// The state, to be touched only while the mutex is locked.
        @inline(__always)
        var state: UnsafeMutablePointer<State> {
            withUnsafeMutablePointerToElements { $0 }
        }

        /// A lock holding `state`.
        static func make(_ state: consuming State) -> Storage {
            let storage = unsafeDowncast(create(minimumCapacity: 1) { _ in .init() }, to: Storage.self)
            storage.mutex.setUp()
            // Moved in, outside a closure, which would have copied it.
            storage.state.initialize(to: state)
            return storage
        }

        /// Unlocks what `Locked.lock()` locked, for a holder of this object alone (`LockedSlot`).
        @inline(__always)
        func unlock() {
            mutex.unlock()
        }

        /// `Locked.withLock(_:)`, for a holder of this object alone (`PublishedValue`).
        @inline(__always)
        func withLock<Result>(_ body: (inout State) -> Result) -> Result {
            mutex.lock()
            defer { mutex.unlock() }
            return body(&state.pointee)
        }

        deinit {
            state.deinitialize(count: 1)
            mutex.destroy()
        }
    }

    init(_ state: State) {
        storage = Storage.make(state)
    }

    /// The mutex (see `Storage`).
    private var mutex: PlatformMutex {
        @inline(__always) get { storage.mutex }
    }

    /// The state (see `Storage`).
    private var state: UnsafeMutablePointer<State> {
        @inline(__always) get { storage.state }
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
