import Synchronization

/// A value published for reads without a lock: a `@LazyInject` property's kept value. A word,
/// the first stored property of its owner (`LazyResolution`), holds the address of a retained
/// `ReadyValue<Value>`, or 0 until a value is kept. A reader announces the box in its thread's
/// hazard record while it copies the value out (`Hazards.announce`, the guard the ready tables
/// use too). Keeping a first value is one compare-and-exchange from 0, so of first reads that
/// race, one keeps its box and the others read it; an assignment exchanges the word whatever
/// it holds, and releases the box it replaced once no reader announces it.
///
/// Before `Synchronization`, the owner's lock guards the word, and reads take it.
@usableFromInline
@frozen
struct PublishedValue {
    /// The word (an `Atomic<UInt>` where `Synchronization` is available), in the owner's storage.
    @usableFromInline let word: UnsafeMutableRawPointer
    /// Before `Synchronization`: the lock that guards `word`; `nil` where atomics exist. The
    /// owner's, which outlives this value: not retained, so that each read of a kept value
    /// pays no reference counting for it.
    unowned(unsafe) let lock: Locked<Void>?

    /// The value whose word is `owner`'s first stored property, a `UInt`, which nothing else
    /// touches. Its address is fixed while `owner` lives (an object never moves), as
    /// swift-atomics' `ManagedAtomic` finds its own storage; an `Atomic` cannot be a stored
    /// property while the package supports systems without `Synchronization`.
    @usableFromInline
    init(in owner: AnyObject, lock: Locked<Void>?) {
        self.word = _getUnsafePointerToStoredProperties(owner)
        self.lock = lock
    }

    /// A lock for `word` where atomics are not available (before `Synchronization`), else `nil`.
    static func lockIfNeeded() -> Locked<Void>? {
        if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) { return nil }
        return Locked(())
    }

    /// Sets up the word of `owner` (see `init(in:lock:)`), fresh, as holding nothing.
    static func initialize(in owner: AnyObject) {
        let word = _getUnsafePointerToStoredProperties(owner)
        if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
            word.bindMemory(to: Atomic<UInt>.self, capacity: 1).initialize(to: Atomic(0))
        } else {
            word.storeBytes(of: 0, as: UInt.self)
        }
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    private var atomic: UnsafeMutablePointer<Atomic<UInt>> {
        word.assumingMemoryBound(to: Atomic<UInt>.self)
    }

    /// The kept value; `nil` until one is kept, or when an assignment changed it while this
    /// read announced it (the caller then reads `keptValue(as:)`, which looks again). Without
    /// a lock where `Synchronization` is available; inlined into the reader's code, so that
    /// `Value` is known where the value is copied out (unspecialised, the generic code looked
    /// up type metadata on every read).
    @inlinable
    func value<Value>(as type: Value.Type) -> Value? {
        if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
            let hazard = Hazards.announced(in: word)
            guard let box = UnsafeRawPointer(bitPattern: hazard.address) else {
                hazard.withdraw()
                return nil
            }
            let value = Unmanaged<ReadyValue<Value>>.fromOpaque(box)._withUnsafeGuaranteedRef { $0.value }
            hazard.withdraw()  // only now, with the copy retained (see `Hazards.clear`)
            return value
        }
        return keptValue(as: Value.self)
    }

    /// The kept value; `nil` only while none is kept. Off the hot path: after a first value
    /// lost its compare-and-exchange, and in the first read's exactly-once path.
    @inlinable
    func keptValue<Value>(as type: Value.Type) -> Value? {
        keptBox().map { unsafeDowncast($0, to: ReadyValue<Value>.self).value }
    }

    /// The kept box, retained; `nil` only while none is kept (a kept word never goes back to
    /// 0). An announcement that an assignment overtakes is made again.
    @usableFromInline
    func keptBox() -> AnyObject? {
        if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
            while true {
                if let hazard = Hazards.announce(word), let box = UnsafeRawPointer(bitPattern: hazard.address) {
                    let kept = Unmanaged<AnyObject>.fromOpaque(box).takeUnretainedValue()
                    hazard.withdraw()  // only now, with `kept` retained
                    return kept
                }
                if atomic.pointee.load(ordering: .acquiring) == 0 { return nil }
            }
        }
        return lock?.withLock { _ in
            UnsafeRawPointer(bitPattern: word.load(as: UInt.self)).map {
                Unmanaged<AnyObject>.fromOpaque($0).takeUnretainedValue()
            }
        }
    }

    /// Keeps `box` (a `ReadyValue<Value>`), in place of a box already kept only when
    /// `replacing`; whether it was kept. The box it replaces is released once no reader
    /// announces it, after any lock is let go (its value's `deinit` may run user code).
    @usableFromInline
    func keep(_ box: AnyObject, replacing: Bool) -> Bool {
        keep(retained: .passRetained(box), replacing: replacing)
    }

    /// `keep(_:replacing:)` of a box retained once for this word (released if not kept).
    @usableFromInline
    func keep(retained box: Unmanaged<AnyObject>, replacing: Bool) -> Bool {
        let new = UInt(bitPattern: box.toOpaque())
        let old: UInt
        if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
            if replacing {
                old = atomic.pointee.exchange(new, ordering: .sequentiallyConsistent)
            } else {
                // Sequentially consistent, as every write of a published word (see README).
                let (exchanged, _) = atomic.pointee.compareExchange(
                    expected: 0, desired: new, ordering: .sequentiallyConsistent)
                old = exchanged ? 0 : new  // not kept: ours to let go, never published
            }
            if old != 0, old != new { Hazards.waitUntilUnread(old) }
        } else {
            old =
                lock?.withLock { _ in
                    let kept = word.load(as: UInt.self)
                    guard replacing || kept == 0 else { return new }
                    word.storeBytes(of: new, as: UInt.self)
                    return kept
                } ?? new
        }
        guard let released = UnsafeRawPointer(bitPattern: old) else { return true }
        Unmanaged<AnyObject>.fromOpaque(released).release()
        return old != new
    }

    /// Releases the kept box, when the owner goes away (no reader is left: each holds the owner).
    func releaseKept() {
        let kept =
            if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
                atomic.pointee.load(ordering: .acquiring)
            } else {
                word.load(as: UInt.self)
            }
        guard let box = UnsafeRawPointer(bitPattern: kept) else { return }
        Unmanaged<AnyObject>.fromOpaque(box).release()
    }
}
