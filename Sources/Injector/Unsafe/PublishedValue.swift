import Synchronization

/// A value published for reads without a lock: a `@LazyInject` property's kept value. A word,
/// the first stored property of its owner (`LazyResolution`), holds the address of a retained
/// `ReadyValue<Value>`, or 0 until a value is kept. A box once published is not released
/// before the owner: an assignment publishes a box that holds the one it replaced
/// (`ReplacingValue`). So a read is one load (acquire) and a copy out of the box, with no
/// announcement: the box cannot go while the reader holds the owner. Keeping a first value is
/// one compare-and-exchange from 0, so of first reads that race, one keeps its box and the
/// others read it; an assignment is one compare-and-exchange from the box it found.
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

    /// The kept value; `nil` until one is kept. Inlined into the reader's code, so that
    /// `Value` is known where the value is copied out (unspecialised, the generic code looked
    /// up type metadata on every read).
    @inlinable
    func value<Value>(as type: Value.Type) -> Value? {
        guard let box = UnsafeRawPointer(bitPattern: keptAddress()) else { return nil }
        // Safe: the box lives as long as the owner (see above), which the caller holds.
        return Unmanaged<ReadyValue<Value>>.fromOpaque(box)._withUnsafeGuaranteedRef { $0.value }
    }

    /// The kept box, retained; `nil` while none is kept.
    func keptBox() -> AnyObject? {
        UnsafeRawPointer(bitPattern: keptAddress()).map { Unmanaged<AnyObject>.fromOpaque($0).takeUnretainedValue() }
    }

    /// The address of the kept box, or 0: loaded with acquire ordering (a box published by
    /// another thread is seen whole), or under the lock before `Synchronization`. (A call:
    /// `Synchronization` is not part of the library's interface, which inlinable callers see.)
    @usableFromInline
    @inline(never)
    func keptAddress() -> UInt {
        if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
            return atomic.pointee.load(ordering: .acquiring)
        }
        return lock?.withLock { _ in word.load(as: UInt.self) } ?? 0
    }

    /// Keeps `box` (a `ReadyValue<Value>`, retained once for this word) if no value is kept
    /// yet; whether it was kept (if not, it is released: never published).
    @usableFromInline
    func keepFirst(retained box: Unmanaged<AnyObject>) -> Bool {
        let kept = publish(UInt(bitPattern: box.toOpaque()), replacing: 0)
        if !kept { box.release() }
        return kept
    }

    /// Keeps the box `make` makes from the box kept now (`nil` if none), which it must hold
    /// (see `ReplacingValue`), in place of that box.
    func replace(making make: (AnyObject?) -> AnyObject) {
        while true {
            let current = keptAddress()
            let replaced = UnsafeRawPointer(bitPattern: current).map {
                Unmanaged<AnyObject>.fromOpaque($0).takeUnretainedValue()
            }
            let box = Unmanaged.passRetained(make(replaced))
            guard publish(UInt(bitPattern: box.toOpaque()), replacing: current) else {
                box.release()  // another assignment, or a first value, came first: again, over it
                continue
            }
            // The word's reference to the box it held: the new box holds it from now on.
            if let replaced { Unmanaged.passUnretained(replaced).release() }
            return
        }
    }

    /// Stores `new` in the word if it holds `expected`; whether it did. Sequentially
    /// consistent, as every write of a published word (see README), or under the lock.
    private func publish(_ new: UInt, replacing expected: UInt) -> Bool {
        if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
            return atomic.pointee.compareExchange(expected: expected, desired: new, ordering: .sequentiallyConsistent)
                .exchanged
        }
        return lock?.withLock { _ in
            guard word.load(as: UInt.self) == expected else { return false }
            word.storeBytes(of: new, as: UInt.self)
            return true
        } ?? false
    }

    /// Releases the kept box, when the owner goes away (no reader is left: each holds the owner).
    func releaseKept() {
        guard let box = UnsafeRawPointer(bitPattern: keptAddress()) else { return }
        Unmanaged<AnyObject>.fromOpaque(box).release()
    }
}
