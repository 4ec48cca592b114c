/// A ready slot, or a transient's or scoped registration, found in a published table, which stays
/// alive (announced in this thread's hazard record, `hazard`) until the value is copied out or
/// the registration retained. Non-copyable: the announcement is withdrawn once, by
/// `value(as:name:in:)`, which is inlined into the resolve's caller so that a value of the
/// registered type itself is copied out of its `ReadyValue<T>` with `T` known: no cast.
@usableFromInline
@frozen
struct ProtectedSlot: ~Copyable {
    /// A ready slot's `ReadyValue`, if the value has the registered type.
    @usableFromInline let typed: Unmanaged<AnyObject>?
    /// The `Registry.ReadySlot` (with a `transient`, that registration), unretained.
    @usableFromInline let slot: Unmanaged<AnyObject>
    /// A transient's or scoped `Registration` (see `Registration.isPublishedFactory`), unretained.
    @usableFromInline let transient: Unmanaged<Registration>?
    /// This thread's hazard record, which announces the table until the slot is read (a
    /// `HazardGuard`'s, handed over: a plain word, so that the slot is discarded without
    /// destroying a field, and each frame of a chain of resolves stays small). Its lowest bit
    /// is set when the table is observed (a record is 8-byte aligned): `Hazards` takes it
    /// tagged, and `DependencyInjector.withdraw(_:afterReading:name:)` reports the read.
    @usableFromInline let hazard: UnsafeMutableRawPointer

    @usableFromInline
    init(
        typed: Unmanaged<AnyObject>?,
        slot: Unmanaged<AnyObject>,
        transient: Unmanaged<Registration>?,
        hazard: consuming HazardGuard,
        isObserved: Bool = false
    ) {
        self.typed = typed
        self.slot = slot
        self.transient = transient
        self.hazard = Hazards.tagged(hazard.handOver(), if: isObserved)
    }

    /// The value as a `T`, the type the slot was found under (its key's, registered under
    /// `name`), copied, or made by `injector` from a published factory; withdraws the
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
        return Self.value(in: typed, as: T.self, name: name, announcedIn: hazard, by: injector)
    }

    /// The value untyped, for a caller that knows only the key (a forward's target), read
    /// from the slot itself (a `typed` box is read only as the key's type), or made by
    /// `injector` from a published factory; withdraws the announcement, as `value(as:…)` does.
    /// For a slot of an unobserved table only (`slotUnlessObserved`): nothing is reported.
    consuming func untypedValue(key: DependencyKey, in injector: DependencyInjector) throws(InjectionError) -> Any {
        let (slot, transient, hazard) = (self.slot, self.transient, self.hazard)
        discard self
        return try injector.resolve(found: slot, transient: transient, hazard: hazard, as: Any.self, key: key)
    }

    /// The value in `typed`, a `ReadyValue<T>`, copied, then the announcement in `hazard`
    /// withdrawn (and the read reported, when the table is observed). Apart from `value(as:…)`
    /// only for an unoptimised build, where each level of a chain of transients holds that
    /// frame, and each value named in it takes stack (see `DeepGraphTests`); inlined otherwise.
    @inlinable
    @inline(__always)
    static func value<T>(
        in typed: Unmanaged<AnyObject>,
        as type: T.Type,
        name: String?,
        announcedIn hazard: UnsafeMutableRawPointer,
        by injector: DependencyInjector
    ) -> T {
        // Safe: a slot has a `typed` box only when the value's type is the key's, `T`.
        let value = typed._withUnsafeGuaranteedRef { unsafeDowncast($0, to: ReadyValue<T>.self).value }
        // Only now, with the copy retained (see `Hazards.clear`).
        if Hazards.isTagged(hazard) {
            injector.withdraw(hazard, afterReading: T.self, name: name)
        } else {
            Hazards.withdraw(hazard)
        }
        return value
    }

    /// The ready value as a `T` (the type the slot was found under, registered under `name`),
    /// copied, with its box (a `ReadyValue<T>`) retained once for the caller to keep: the
    /// table's own box when it has one, else a new box of the value cast. `nil` for a
    /// transient's registration, whose factory must run (or a value that is no `T`, which the
    /// caller's resolve reports). Withdraws the announcement. For a `@LazyInject` property's
    /// first read, which keeps the box (see `LazyResolution.readyValue(as:)`).
    @inlinable
    @inline(__always)
    consuming func readyValue<T>(
        as type: T.Type,
        name: String?,
        in injector: DependencyInjector
    ) -> (value: T, box: Unmanaged<AnyObject>)? {
        let hazard = self.hazard
        let (typed, slot, transient) = (self.typed, self.slot, self.transient)
        discard self
        guard !Hazards.isTagged(hazard) else {
            Hazards.withdraw(hazard)
            return nil  // read by a resolve, which is reported
        }
        if let typed {
            // Safe: a slot has a `typed` box only when the value's type is the key's, `T`.
            let value = typed._withUnsafeGuaranteedRef { unsafeDowncast($0, to: ReadyValue<T>.self).value }
            let box = typed.retain()
            Hazards.withdraw(hazard)  // only now, with the copy and the box retained
            return (value, box)
        }
        guard transient == nil else {
            Hazards.withdraw(hazard)
            return nil
        }
        guard let value = try? injector.resolve(found: slot, transient: nil, hazard: hazard, as: T.self, name: name)
        else { return nil }
        return (value, Unmanaged.passRetained(ReadyValue(value)))
    }

    /// Whether the slot is an async factory's registration, for the actor face to run.
    @inlinable
    var holdsAsyncFactory: Bool {
        transient?._withUnsafeGuaranteedRef { $0.isAsyncFactory } == true
    }

    /// Whether the actor face runs the slot's registration itself (read unretained, as
    /// `holdsAsyncFactory`): an async factory's, or a `.scoped` one's, whose creation by a thread
    /// it awaits rather than sleeping (see `AsyncDependencyInjector.resolveScoped`).
    @inlinable
    var holdsFactoryForTheActorFace: Bool {
        transient?._withUnsafeGuaranteedRef { $0.isAsyncFactory || $0.isScoped } == true
    }

    /// Whether the slot is a `.scoped` registration's (read unretained, as `holdsAsyncFactory`).
    @inlinable
    var holdsScopedFactory: Bool {
        transient?._withUnsafeGuaranteedRef { $0.isScoped } == true
    }

    /// The registration of a slot that holds a published factory (`holdsAsyncFactory`,
    /// `holdsScopedFactory`), retained; withdraws the announcement.
    @inlinable
    consuming func registration() -> Registration? {
        let (hazard, transient) = (self.hazard, self.transient)
        discard self
        let registration = transient?.takeUnretainedValue()  // retained by the copy, then withdrawn
        Hazards.withdraw(hazard)
        return registration
    }

    deinit {
        Hazards.withdraw(hazard)
    }
}
