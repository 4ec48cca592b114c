import Synchronization

/// A value published for reads without a lock: a `@LazyInject` property's kept value, in a
/// `ReadyValue<Value>` box whose address sits in an atomic word. A reader announces the box in
/// its thread's hazard record while it copies the value out (`Hazards.announce`, the guard the
/// ready tables use too); a writer, under the lock, publishes a new box and releases the one
/// it replaces once no reader announces it. Before `Synchronization`, reads take the lock.
@usableFromInline
final class PublishedValue<Value>: @unchecked Sendable {
    // `@unchecked Sendable`: `box` is guarded by its lock; `word` (an `Atomic<UInt>`) is
    // touched only atomically, and written only under `box`'s lock.

    /// The kept box; `nil` until a value is kept.
    private let box = Locked<ReadyValue<Value>?>(nil)
    /// The address of the box in `box` (0: none), for reads without the lock.
    @usableFromInline let word: UnsafeMutableRawPointer

    init() {
        word = .allocate(byteCount: MemoryLayout<UInt>.size, alignment: MemoryLayout<UInt>.alignment)
        if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
            word.bindMemory(to: Atomic<UInt>.self, capacity: 1).initialize(to: Atomic(0))
        }
    }

    deinit {
        // No reader is left: each holds this object while it reads.
        word.deallocate()
    }

    /// The kept value; `nil` until one is kept. Without a lock where `Synchronization` is
    /// available; inlined into the reader's code, so that `Value` is known where the value is
    /// copied out (unspecialised, the generic code looked up type metadata on every read).
    @inlinable
    var value: Value? {
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
        return lockedBox?.value
    }

    /// The kept box, read under the lock.
    @usableFromInline
    var lockedBox: ReadyValue<Value>? {
        box.withLock { $0 }
    }

    /// Keeps `value`, in place of a value already kept only when `replacing`. The box it
    /// replaces is released after the unlock, once no reader announces it (its value's
    /// `deinit` may run user code).
    func keep(_ value: Value, replacing: Bool) {
        let new = ReadyValue(value)
        let replaced = box.withLock { kept -> ReadyValue<Value>?? in
            guard replacing || kept == nil else { return nil }
            if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
                let address = UInt(bitPattern: Unmanaged.passUnretained(new).toOpaque())
                word.assumingMemoryBound(to: Atomic<UInt>.self).pointee.store(
                    address, ordering: .sequentiallyConsistent)
            }
            return .some(exchange(&kept, with: new))
        }
        guard case .some(let old?) = replaced else { return }
        if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
            Hazards.waitUntilUnread(UInt(bitPattern: Unmanaged.passUnretained(old).toOpaque()))
        }
        withExtendedLifetime(old) {}
    }
}
