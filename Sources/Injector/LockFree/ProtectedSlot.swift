import Synchronization

/// A ready slot, or a transient's registration, found in a published table, which stays
/// alive (announced in this thread's hazard record) until the value is copied out or the
/// registration retained. Non-copyable: the announcement is withdrawn once, by
/// `value(as:name:)`, which is inlined into the resolve's caller so that a value of the
/// registered type itself is copied out of its `ReadyValue<T>` with `T` known: no cast.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
@usableFromInline
@frozen
struct ProtectedSlot: ~Copyable {
    /// A ready slot's `ReadyValue`, if the value has the registered type.
    @usableFromInline let typed: Unmanaged<AnyObject>?
    /// The `Registry.ReadySlot` (with a `transient`, that registration), unretained.
    @usableFromInline let slot: UnsafeMutableRawPointer
    /// A transient's `Registration`, unretained.
    @usableFromInline let transient: UnsafeMutableRawPointer?
    /// This thread's hazard (an `Atomic<UInt>`), which names the table until the slot is read.
    @usableFromInline let hazard: UnsafeMutableRawPointer

    /// The value as a `T`, the type the slot was found under (its key's, registered under
    /// `name`), copied, or made by `injector` from a transient's factory; withdraws the
    /// announcement once the slot is read, before any factory runs.
    @inlinable
    consuming func value<T>(as type: T.Type, name: String?, in injector: DependencyInjector) throws(InjectionError)
        -> T
    {
        let hazard = self.hazard
        guard let typed else {
            let (slot, transient) = (self.slot, self.transient)
            discard self
            return try injector.resolve(found: slot, transient: transient, hazard: hazard, as: type, name: name)
        }
        discard self
        // Safe: a slot has a `typed` box only when the value's type is the key's, `T`.
        let value = typed._withUnsafeGuaranteedRef { unsafeDowncast($0, to: ReadyValue<T>.self).value }
        // Only now, with the copy retained (see `clear`).
        Self.clear(hazard)
        return value
    }

    /// Withdraws the announcement: the slot has been read (a release store, so that a writer
    /// that reads the cleared hazard sees every read of the table before it).
    ///
    /// A call the optimiser cannot see into, so that it may release anything as far as the
    /// optimiser knows: the retain of a value copied out of the table stays before it. An
    /// atomic store alone is no such barrier: the retain sank below it (seen in the release
    /// build's code), after which the table, and the value with it, could be freed first.
    @usableFromInline
    @inline(never) @_optimize(none)
    static func clear(_ hazard: UnsafeMutableRawPointer) {
        hazard.assumingMemoryBound(to: Atomic<UInt>.self).pointee.store(0, ordering: .releasing)
    }

    deinit {
        Self.clear(hazard)
    }
}
