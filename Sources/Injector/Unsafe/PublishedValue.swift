import Synchronization

/// A value published for reads without a lock: a `@LazyInject` property's kept value. Two
/// words, the first stored property of their owner (`LazyResolution`): the first holds the
/// address of a retained `ReadyValue<Value>`, or 0 until a value is kept; the second, the box
/// of the first value once an assignment has replaced it.
///
/// The first value (resolved, or read ready from the injector's table) is kept by one
/// compare-and-exchange from 0, so of first reads that race, one keeps its box and the others
/// read it; it is never released before the owner, so a read of it is one load (acquire) and a
/// copy, with no announcement: what almost every property ever holds. An assignment publishes
/// its box with the word's lowest bit set (a box is 16-byte aligned): a reader that finds the
/// bit announces the box in its thread's hazard record (`Hazards.announce`) while it retains
/// it, and the assignment that replaces an assigned box waits for such readers before it
/// releases it (`Hazards.waitUntilUnread`). The first value, which readers do not announce, is
/// moved to the second word when an assignment replaces it, and released with the owner.
///
/// Before `Synchronization`, the owner's lock guards the words, and an assigned value's reads
/// take it.
@usableFromInline
@frozen
struct PublishedValue {
    /// The first word (an `Atomic<UInt>` where `Synchronization` is available), in the owner's
    /// storage; the second follows it.
    @usableFromInline let word: UnsafeMutableRawPointer
    /// Before `Synchronization`: the lock that guards the words; `nil` where atomics exist. The
    /// owner's, which outlives this value: not retained, so that each read of a kept value
    /// pays no reference counting for it.
    unowned(unsafe) let lock: Locked<Void>.Storage?

    /// The word's bit that marks an assigned box.
    @usableFromInline static let assigned: UInt = 1

    /// The value whose words are `owner`'s first stored property, a `(UInt, UInt)`, which
    /// nothing else touches. Their address is fixed while `owner` lives (an object never
    /// moves), as swift-atomics' `ManagedAtomic` finds its own storage; an `Atomic` cannot be
    /// a stored property while the package supports systems without `Synchronization`.
    @usableFromInline
    init(in owner: AnyObject, lock: Locked<Void>?) {
        self.word = _getUnsafePointerToStoredProperties(owner)
        self.lock = lock?.storage
    }

    /// A lock for the words where atomics are not available (before `Synchronization`), else `nil`.
    static func lockIfNeeded() -> Locked<Void>? {
        if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) { return nil }
        return Locked(())
    }

    /// Sets up the words of `owner` (see `init(in:lock:)`), fresh, as holding nothing.
    static func initialize(in owner: AnyObject) {
        let words = _getUnsafePointerToStoredProperties(owner)
        if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
            let atomics = words.bindMemory(to: Atomic<UInt>.self, capacity: 2)
            atomics.initialize(to: Atomic(0))
            (atomics + 1).initialize(to: Atomic(0))
        } else {
            words.initializeMemory(as: UInt.self, repeating: 0, count: 2)
        }
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    private var atomic: UnsafeMutablePointer<Atomic<UInt>> {
        word.assumingMemoryBound(to: Atomic<UInt>.self)
    }

    /// The second word: the first value's box, once an assignment replaced it.
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    private var replacedFirst: UnsafeMutablePointer<Atomic<UInt>> {
        atomic + 1
    }

    /// The second word, before `Synchronization` (a `UInt` on, 4 bytes on a 32-bit watch).
    private var secondWord: UnsafeMutableRawPointer {
        word + MemoryLayout<UInt>.stride
    }

    /// The kept value; `nil` until one is kept. Inlined into the reader's code, so that
    /// `Value` is known where the value is copied out (unspecialised, the generic code looked
    /// up type metadata on every read).
    @inlinable
    func value<Value>(as type: Value.Type) -> Value? {
        let kept = keptWord()
        guard kept & Self.assigned != 0 else {
            // The first value (or none): its box lives as long as the owner, which the caller holds.
            guard let box = UnsafeRawPointer(bitPattern: kept) else { return nil }
            return Unmanaged<ReadyValue<Value>>.fromOpaque(box)._withUnsafeGuaranteedRef { $0.value }
        }
        // An assigned value, which another assignment may release: its box retained first.
        return keptBox().map { unsafeDowncast($0, to: ReadyValue<Value>.self).value }
    }

    /// The first word, loaded with acquire ordering (a box published by another thread is
    /// seen whole), or under the lock before `Synchronization`. (A call: `Synchronization` is
    /// not part of the library's interface, which inlinable callers see.)
    @usableFromInline
    @inline(never)
    func keptWord() -> UInt {
        if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
            return atomic.pointee.load(ordering: .acquiring)
        }
        return lock?.withLock { _ in word.load(as: UInt.self) } ?? 0
    }

    /// The kept box, retained; `nil` while none is kept. An assigned box is announced while it
    /// is retained (an announcement that an assignment overtakes is made again).
    @usableFromInline
    func keptBox() -> AnyObject? {
        if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
            while true {
                let kept = atomic.pointee.load(ordering: .acquiring)
                if kept & Self.assigned == 0 { return Self.box(at: kept) }
                if let hazard = Hazards.announce(word) {
                    let box = Self.box(at: hazard.address)
                    Hazards.withdraw(hazard.handOver())  // only now, with `box` retained
                    return box
                }
            }
        }
        return lock?.withLock { _ in Self.box(at: word.load(as: UInt.self)) }
    }

    /// The box whose address `kept` holds (with its tag), retained; `nil` for 0.
    private static func box(at kept: UInt) -> AnyObject? {
        UnsafeRawPointer(bitPattern: kept & ~assigned).map { Unmanaged<AnyObject>.fromOpaque($0).takeUnretainedValue() }
    }

    /// Keeps `box` (a `ReadyValue<Value>`, retained once for this word) if no value is kept
    /// yet; whether it was kept (if not, it is released: never published).
    @usableFromInline
    func keepFirst(retained box: Unmanaged<AnyObject>) -> Bool {
        let new = UInt(bitPattern: box.toOpaque())
        let kept: Bool
        if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
            // Sequentially consistent, as every write of a published word (see README).
            kept =
                atomic.pointee.compareExchange(expected: 0, desired: new, ordering: .sequentiallyConsistent).exchanged
        } else {
            kept =
                lock?.withLock { _ in
                    guard word.load(as: UInt.self) == 0 else { return false }
                    word.storeBytes(of: new, as: UInt.self)
                    return true
                } ?? false
        }
        if !kept { box.release() }
        return kept
    }

    /// Keeps `box` (a `ReadyValue<Value>`) in place of whatever is kept: an assigned box is
    /// released once no reader announces it; the first value is kept until the owner goes
    /// (its readers announce nothing).
    func assign(_ box: AnyObject) {
        let new = UInt(bitPattern: Unmanaged.passRetained(box).toOpaque()) | Self.assigned
        let old: UInt
        if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
            old = atomic.pointee.exchange(new, ordering: .sequentiallyConsistent)
            if old & Self.assigned == 0 {
                // Once: every box after the first is assigned, so no other write stores here.
                if old != 0 { replacedFirst.pointee.store(old, ordering: .releasing) }
                return
            }
            Hazards.waitUntilUnread(old & ~Self.assigned)
        } else {
            old =
                lock?.withLock { _ in
                    let kept = word.load(as: UInt.self)
                    word.storeBytes(of: new, as: UInt.self)
                    if kept != 0, kept & Self.assigned == 0 { secondWord.storeBytes(of: kept, as: UInt.self) }
                    return kept
                } ?? 0
            guard old & Self.assigned != 0 else { return }
        }
        Self.box(at: old).map { Unmanaged.passUnretained($0).release() }
    }

    /// Releases the kept boxes, when the owner goes away (no reader is left: each holds the owner).
    func releaseKept() {
        let (kept, first) =
            if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
                (atomic.pointee.load(ordering: .acquiring), replacedFirst.pointee.load(ordering: .acquiring))
            } else {
                (word.load(as: UInt.self), secondWord.load(as: UInt.self))
            }
        for address in [kept, first] {
            Self.box(at: address).map { Unmanaged.passUnretained($0).release() }
        }
    }
}
