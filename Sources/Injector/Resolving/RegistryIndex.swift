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
    private(set) var readyKeys: [ObjectIdentifier: [ObjectIdentifier: Set<DependencyKey>]] {
        get { filedKeys ?? .init() }
        _modify {
            // Moved out and back: changed in place, not copied.
            var keys = filedKeys.take() ?? .init()
            defer { filedKeys = keys }
            yield &keys
        }
    }

    /// `readyKeys`, `nil` until a value is first filed: most opened scopes file none, and
    /// their release then releases no empty dictionary for it.
    private var filedKeys: [ObjectIdentifier: [ObjectIdentifier: Set<DependencyKey>]]?

    /// The bytes of every name registered here, so that a miss among more names than are
    /// ranked looks up only the edits of its name that could be registered (see
    /// `Suggestion.forEachNameOneEditAway`). One set for all types, not one per type: a
    /// dictionary update on every named registration made registering slower. Never
    /// narrowed by a removal: a superset still rules out exactly the edits no name can be.
    private(set) var nameBytes = NameBytes()

    /// The registered types by simple name, brought up to date by a miss after `typesVersion`
    /// changed (see `Registry.refreshSimpleNames()`).
    var simpleNames: SimpleNames {
        get { builtNames ?? SimpleNames() }
        set { builtNames = newValue }
    }

    /// `simpleNames`, `nil` until a miss first builds them (most registries never): their
    /// release then releases no empty dictionaries (two per opened scope).
    private var builtNames: SimpleNames?

    mutating func typesChanged() {
        typesVersion &+= 1
    }

    /// Files the value of `new` under `key` in place of `old`'s. (Slots, not entries: an
    /// entry is copied through its value witnesses, which made registering slower.)
    mutating func replace(_ old: Registry.Slot?, with new: Registry.Slot?, under key: DependencyKey) {
        if old == nil, new != nil, let name = key.name { nameBytes.insert(name) }
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
        // Not `[:]`: an empty literal is a call, paid by every injector and every opened scope.
        names = .init()
        types = .init()
    }

    /// The names of `types`, as of `version`; those `previous` knows are not built again.
    init(of types: [ObjectIdentifier: any Any.Type], version: Int, reusing previous: SimpleNames) {
        var names: [ObjectIdentifier: String] = [:]
        var byName: [String: [any Any.Type]] = [:]
        for (id, type) in types {
            let name = previous.names[id] ?? Self.name(of: type)
            names[id] = name
            byName[name, default: []].append(type)
        }
        self.version = version
        self.names = names
        self.types = byName
    }

    /// `type`'s simple name, as `String(describing:)` gives it (`Config`, `Array<Int>`), which
    /// ends in this call: `String(describing:)` first asks whether the metatype conforms to the
    /// printing protocols, about a microsecond per type (far more the first time in a process),
    /// which made a miss's first look at the registered types slower than the misses after it.
    static func name(of type: any Any.Type) -> String {
        _typeName(type, qualified: false)
    }
}

/// A set of bytes: those that occur in some names (see `RegistryIndex.nameBytes`).
struct NameBytes {
    private var words: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)

    /// Adds every byte of `name`'s UTF-8, read in place where the string allows it.
    mutating func insert(_ name: String) {
        if name.utf8.withContiguousStorageIfAvailable({ insert(contentsOf: $0) }) == nil {
            insert(contentsOf: Array(name.utf8))
        }
    }

    private mutating func insert<Bytes: Sequence<UInt8>>(contentsOf bytes: Bytes) {
        // ASCII in locals, stored once: every named registration pays this loop.
        var (low, high) = (words.0, words.1)
        for byte in bytes {
            let bit = UInt64(1) &<< UInt64(byte & 63)
            if byte < 64 {
                low |= bit
            } else if byte < 128 {
                high |= bit
            } else if byte < 192 {
                words.2 |= bit
            } else {
                words.3 |= bit
            }
        }
        (words.0, words.1) = (low, high)
    }

    /// Whether `byte` occurs in a name.
    func contains(_ byte: UInt8) -> Bool {
        let word =
            switch byte >> 6 {
            case 0: words.0
            case 1: words.1
            case 2: words.2
            default: words.3
            }
        return word & (UInt64(1) << (byte & 63)) != 0
    }

    /// The bytes in either set.
    func union(_ other: NameBytes) -> NameBytes {
        var union = self
        union.words = (
            words.0 | other.words.0, words.1 | other.words.1, words.2 | other.words.2, words.3 | other.words.3
        )
        return union
    }
}
