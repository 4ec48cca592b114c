/// A ready slot the walk found, its table still locked, so that the value is copied out under
/// the lock as on the hot path, retaining neither slot nor injector. Non-copyable: the lock is
/// released once, by `value(as:key:)` or, if dropped unread, by `deinit`.
struct LockedSlot: ~Copyable {
    private let slot: Unmanaged<Registry.ReadySlot>
    private let lock: Unmanaged<Locked<Registry>.Storage>

    init(_ slot: Unmanaged<Registry.ReadySlot>, lockedIn lock: Locked<Registry>) {
        self.slot = slot
        self.lock = .passUnretained(lock.storage)
    }

    /// The value as a `T`; unlocks.
    consuming func value<T>(as type: T.Type, key: DependencyKey) throws(InjectionError) -> T {
        let (slot, lock) = (self.slot, self.lock)
        discard self  // unlocking is done here, on either path, not by `deinit`
        defer { lock._withUnsafeGuaranteedRef { $0.unlock() } }
        return try Registry.ReadySlot.value(of: slot, as: type, key: key)
    }

    /// Where the registration whose value this is was made.
    var site: RegistrationSite {
        slot._withUnsafeGuaranteedRef { $0.entry.site }
    }

    deinit {
        lock._withUnsafeGuaranteedRef { $0.unlock() }
    }
}
