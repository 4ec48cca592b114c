/// An injector's own registrations, guarded by its lock.
///
/// Two levels, so that the common unnamed lookup hashes only an `ObjectIdentifier` (as cheap
/// as the plainest `[ObjectIdentifier: Any]` registry) and a named lookup adds one string
/// hash. Both are constant time whatever the number of registrations.
struct Registry {
    private var slots: [ObjectIdentifier: Slot] = [:]

    /// The observation hook and the recorded edges (see `Diagnostics/`).
    var diagnostics = RegistryDiagnostics()

    private struct Slot {
        var unnamed: Entry?
        var named: [String: Entry] = [:]

        var isEmpty: Bool { unnamed == nil && named.isEmpty }
    }

    subscript(key: DependencyKey) -> Entry? {
        get {
            guard let slot = slots[key.typeID] else { return nil }
            guard let name = key.name else { return slot.unnamed }
            return slot.named[name]
        }
        set {
            if let name = key.name {
                slots[key.typeID, default: Slot()].named[name] = newValue
            } else {
                slots[key.typeID, default: Slot()].unnamed = newValue
            }
            if slots[key.typeID]?.isEmpty == true { slots[key.typeID] = nil }
        }
    }

    /// Keeps `value` as what `registration` produced, if `registration` is still the one
    /// stored under its key (it may have been replaced or removed while its factory ran).
    mutating func cache(_ value: Any, producedBy registration: Registration) {
        guard case .factory(let current, _) = self[registration.key], current === registration else { return }
        switch registration.scope {
        case .transient:
            return
        case .singleton:
            self[registration.key] = .factory(registration, .strong(value))
        case .weak:
            // Only a class instance can be held weakly; anything else is made anew each time.
            guard type(of: value) is AnyObject.Type else { return }
            self[registration.key] = .factory(registration, .weak(WeakReference(object: value as AnyObject)))
        }
    }

    /// Every registration's key with its entry, for diagnostics.
    var entries: [(key: DependencyKey, entry: Entry)] {
        slots.values.flatMap { slot in
            var found: [(key: DependencyKey, entry: Entry)] = []
            if let entry = slot.unnamed { found.append((entry.key, entry)) }
            for entry in slot.named.values { found.append((entry.key, entry)) }
            return found
        }
    }
}
