/// What a failed resolve looks up in a registry to suggest what the caller meant, kept up to
/// date by every write, so that a miss costs the same with 100,000 registrations as with ten.
///
/// A write that stores no value (a factory registration) updates nothing here but, when the
/// type is new to the registry, a counter; a registered instance, or a singleton's value once
/// created, is filed under its dynamic type.
struct RegistryIndex {
    /// Changes whenever a type gets its first key in the registry or loses its last one.
    private(set) var typesVersion = 0

    /// The keys whose entries hold (or held, for a weak value) a value, by the value's dynamic
    /// type, then by the key's type: a miss casts one value per dynamic type to find those
    /// that conform to what was asked for, and passes over the keys of the type asked for
    /// (those are its other names) without visiting them.
    private(set) var readyKeys: [ObjectIdentifier: [ObjectIdentifier: Set<DependencyKey>]] = [:]

    /// The registered types by simple name, brought up to date by a miss after `typesVersion`
    /// changed (see `Registry.refreshSimpleNames()`).
    var simpleNames = SimpleNames()

    mutating func typesChanged() {
        typesVersion &+= 1
    }

    /// Files the value of `new` under `key` in place of `old`'s. (Slots, not entries: an
    /// entry is copied through its value witnesses, which made registering slower.)
    mutating func replace(_ old: Registry.Slot?, with new: Registry.Slot?, under key: DependencyKey) {
        let (oldType, newType) = (old?.readyType, new?.readyType)
        guard oldType != newType else { return }
        if let oldType, readyKeys[oldType]?[key.typeID]?.remove(key) != nil {
            if readyKeys[oldType]?[key.typeID]?.isEmpty == true { readyKeys[oldType]?[key.typeID] = nil }
            if readyKeys[oldType]?.isEmpty == true { readyKeys[oldType] = nil }
        }
        if let newType { readyKeys[newType, default: [:]][key.typeID, default: []].insert(key) }
    }
}

/// The types registered in a registry, by simple name (`Config` for `FeatureA.Config`), for
/// the suggestion of a type with the same simple name.
struct SimpleNames {
    /// The `RegistryIndex.typesVersion` these names are for.
    let version: Int
    /// Each type's simple name, kept so that a rebuild names only the new types.
    private let names: [ObjectIdentifier: String]
    /// The types under each simple name.
    let types: [String: [any Any.Type]]

    init() {
        version = -1
        names = [:]
        types = [:]
    }

    /// The names of `types`, as of `version`; those `previous` knows are not built again.
    init(of types: [ObjectIdentifier: any Any.Type], version: Int, reusing previous: SimpleNames) {
        var names: [ObjectIdentifier: String] = [:]
        var byName: [String: [any Any.Type]] = [:]
        for (id, type) in types {
            let name = previous.names[id] ?? String(describing: type)
            names[id] = name
            byName[name, default: []].append(type)
        }
        self.version = version
        self.names = names
        self.types = byName
    }
}
