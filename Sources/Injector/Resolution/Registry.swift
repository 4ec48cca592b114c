/// An injector's own registrations, guarded by its lock.
///
/// Unnamed and named registrations live in separate tables, so that the common unnamed
/// lookup hashes only an `ObjectIdentifier` (as cheap as the plainest `[ObjectIdentifier: Any]`
/// registry) and a named lookup adds one string hash. Both are constant time whatever the
/// number of registrations.
struct Registry {
    private var unnamed: [ObjectIdentifier: Slot] = [:]
    private var named: [ObjectIdentifier: [String: Slot]] = [:]
    /// The module types installed into this injector, so that installing one again is a no-op.
    var installedModules: Set<ObjectIdentifier> = []
    /// Whether registrations are refused (see `DependencyInjector.seal()`).
    var isSealed = false

    /// The observation hook and the recorded edges (see `Diagnostics/`).
    var diagnostics = RegistryDiagnostics()

    private func slot(_ key: DependencyKey) -> Slot? {
        guard let name = key.name else { return unnamed[key.typeID] }
        return named[key.typeID]?[name]
    }

    subscript(key: DependencyKey) -> Entry? {
        get { slot(key)?.entry }
        set {
            let slot = newValue.map(Slot.make)
            guard let name = key.name else {
                unnamed[key.typeID] = slot
                return
            }
            named[key.typeID, default: [:]][name] = slot
            if named[key.typeID]?.isEmpty == true { named[key.typeID] = nil }
        }
    }

    /// What a resolve of `key` finds here: a value to return as it is, or a registration whose
    /// factory must run; `nil` when this registry has nothing under `key`.
    ///
    /// `mutating` only to reach an unnamed slot in place (`values[index]`'s `_modify`), which
    /// saves retaining and releasing it; nothing changes. The lock makes the table's storage
    /// uniquely referenced, so no copy is made. A miss is a plain `index(forKey:)`: the key's
    /// `_modify` would make room for an insertion that never comes.
    mutating func lookup(_ key: DependencyKey) -> Lookup? {
        guard let name = key.name else {
            guard let index = unnamed.index(forKey: key.typeID) else { return nil }
            return Self.lookup(in: &unnamed.values[index])
        }
        return named[key.typeID]?[name]?.lookup()
    }

    private static func lookup(in slot: inout Slot) -> Lookup? {
        slot.lookup()
    }

    /// The value under `key` as a `T`, copied straight out of its slot (in place, as in
    /// `lookup(_:)`), or why there is none here: `.pending`, with the registration to run
    /// stored in `pending`.
    ///
    /// The resolve of a ready value, the hot path: it copies the value once, into the result,
    /// where `lookup(_:)` copies it out as an `Any` that the caller then converts and drops.
    mutating func value<T>(_ key: DependencyKey, as type: T.Type, pending: inout Registration?) throws(Miss) -> T {
        guard let name = key.name else {
            guard let index = unnamed.index(forKey: key.typeID) else { throw .absent }
            return try Self.value(in: &unnamed.values[index], as: type, pending: &pending)
        }
        guard let slot = named[key.typeID]?[name] else { throw .absent }
        return try slot.value(as: type, pending: &pending)
    }

    private static func value<T>(
        in slot: inout Slot, as type: T.Type, pending: inout Registration?
    ) throws(Miss) -> T {
        try slot.value(as: type, pending: &pending)
    }

    /// Keeps `value` as what `registration` produced, if `registration` is still the one
    /// stored under its key (it may have been replaced or removed while its factory ran).
    /// Returns the entry it replaces, for the caller to release after the unlock.
    mutating func cache(_ value: Any, producedBy registration: Registration) -> Entry? {
        guard case .factory(let current, _) = self[registration.key], current === registration else { return nil }
        switch registration.scope {
        case .transient:
            return nil
        case .singleton, .eagerSingleton:
            return exchange(&self[registration.key], with: .factory(registration, .strong(value)))
        case .weak:
            // Only a class instance can be held weakly; anything else is made anew each time.
            guard type(of: value) is AnyObject.Type else { return nil }
            return exchange(
                &self[registration.key], with: .factory(registration, .weak(WeakReference(object: value as AnyObject))))
        }
    }

    /// Every registration's key with its entry, for diagnostics.
    var entries: [(key: DependencyKey, entry: Entry)] {
        var found: [(key: DependencyKey, entry: Entry)] = []
        for slot in unnamed.values { found.append((slot.entry.key, slot.entry)) }
        for table in named.values {
            for slot in table.values { found.append((slot.entry.key, slot.entry)) }
        }
        return found
    }
}

/// What a resolve finds in one injector's registry.
enum Lookup {
    /// A value to return: a registered instance or a singleton already created.
    case ready(Any)
    /// A registration whose factory has to run (a transient, or a singleton not created yet).
    case pending(Registration)
}

extension Registry {
    /// An entry as the tables hold it: one reference, so that a lookup copies a pointer out of
    /// the table, not the entry. Immutable: a changed entry gets a new slot.
    ///
    /// The subclasses answer from what they store, without taking the entry apart: `ReadySlot`
    /// for an instance or a created singleton, `PendingSlot` for a factory that has produced
    /// nothing yet (every transient). This class itself serves the rest (a `.weak`
    /// registration), from the entry.
    private class Slot {
        let entry: Entry

        init(_ entry: Entry) {
            self.entry = entry
        }

        /// The slot for `entry`.
        static func make(_ entry: Entry) -> Slot {
            switch entry {
            case .instance(let value, _, _), .factory(_, .strong(let value)): ReadySlot(entry, value: value)
            case .factory(let registration, .empty): PendingSlot(entry, registration: registration)
            case .factory(_, .weak): Slot(entry)
            }
        }

        /// What a resolve finds here.
        func lookup() -> Lookup? {
            guard case .factory(let registration, let cache) = entry else { return nil }
            if let value = cache.value { return .ready(value) }
            return .pending(registration)
        }

        /// The value here as a `T`, or why there is none (a registration to run goes to
        /// `pending`).
        func value<T>(as type: T.Type, pending: inout Registration?) throws(Miss) -> T {
            switch lookup() {
            case .ready(let value):
                return try cast(value, to: type)
            case .pending(let registration):
                pending = registration
                throw .pending(holder: nil)
            case nil:
                throw .absent
            }
        }
    }

    /// The slot of an instance or a created singleton: the hot path, where `value(as:)` copies
    /// the value once, straight into the caller's result.
    private final class ReadySlot: Slot {
        let value: Any

        init(_ entry: Entry, value: Any) {
            self.value = value
            super.init(entry)
        }

        override func lookup() -> Lookup? { .ready(value) }

        override func value<T>(as type: T.Type, pending: inout Registration?) throws(Miss) -> T {
            // Bound to a local so that `cast` opens it: the stored property passed directly
            // reaches `cast` as an unopened `Any`, and the run-time cast runs every time.
            let value: Any = value
            return try cast(value, to: type)
        }
    }

    /// The slot of a factory with nothing kept: a transient, or a singleton not created yet.
    private final class PendingSlot: Slot {
        let registration: Registration

        init(_ entry: Entry, registration: Registration) {
            self.registration = registration
            super.init(entry)
        }

        override func lookup() -> Lookup? { .pending(registration) }

        override func value<T>(as type: T.Type, pending: inout Registration?) throws(Miss) -> T {
            pending = registration
            throw .pending(holder: nil)
        }
    }
}
