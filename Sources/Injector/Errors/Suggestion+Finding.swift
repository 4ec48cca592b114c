extension Suggestion {
    /// The most names, and the most registrations, one message lists.
    static let listed = 5
    /// Up to this many other names of a type are all ranked by distance to the requested one;
    /// among more, only the names one edit away are looked up (see ``otherNames(_:unlisted:)``).
    static let rankedNames = 1_000

    /// What the caller of a failed resolve of `key` (as a `T`) probably meant, found in
    /// `registries`: copies of the registries of the injector asked and of its ancestors, in
    /// that order, with their simple names up to date.
    ///
    /// It reads each registry's index, not every key: the names of the requested type, the
    /// registered values one per dynamic type (cast to `T`), the types of the same simple name.
    /// What it lists it ranks, closest first, and cuts at ``listed``.
    static func find<T>(
        for key: DependencyKey,
        as type: T.Type,
        in registries: [Registry],
        after path: [DependencyKey] = []
    ) -> [Suggestion] {
        var suggestions: [Suggestion] = []
        if let names = otherNames(of: key, in: registries) { suggestions.append(names) }

        var order = KeyOrder(wanted: key.name)
        var conforming = RankedKeys()
        var wider = RankedKeys()
        var sameSimpleName = RankedKeys()
        // An ancestor's key that a nearer injector also holds is hidden by it.
        func isHidden(_ candidate: DependencyKey, below depth: Int) -> Bool {
            registries[..<depth].contains { $0[candidate] != nil }
        }

        for (depth, registry) in registries.enumerated() {
            for (valueType, keysByType) in registry.index.readyKeys {
                // A value of exactly the requested type, kept under a protocol or superclass.
                let isExact = valueType == key.typeID
                // Values of one type all conform or none does; the cast is decided by one of
                // them, unless the type is a box whose cast depends on its content.
                var decided: Bool? = isExact ? true : nil
                if decided == nil {
                    let keys = keysByType.values.lazy.joined()
                    guard let sample = keys.compactMap({ registry[$0]?.readyValue }).first else { continue }
                    if !Self.castDependsOnContent(sample) { decided = sample is T }
                }
                if decided == false { continue }
                // Keys of the requested type are its other names, suggested as such.
                for (keyType, keys) in keysByType where keyType != key.typeID {
                    for candidate in keys where !isHidden(candidate, below: depth) {
                        if decided == nil, !(registry[candidate]?.readyValue is T) { continue }
                        if isExact {
                            wider.consider(candidate, by: &order)
                        } else {
                            conforming.consider(candidate, by: &order)
                        }
                    }
                }
            }
        }

        let simpleName = SimpleNames.name(of: key.type)
        for (depth, registry) in registries.enumerated() {
            for type in registry.index.simpleNames.types[simpleName] ?? [] where ObjectIdentifier(type) != key.typeID {
                let id = ObjectIdentifier(type)
                let slots =
                    [registry.unnamed(id)].compactMap { $0 } + (registry.named(id).map { Array($0.values) } ?? [])
                for slot in slots where !isHidden(slot.entry.key, below: depth) {
                    // One that conforms is suggested as such already.
                    if let value = slot.entry.readyValue, value is T { continue }
                    sameSimpleName.consider(slot.entry.key, by: &order)
                }
            }
        }

        var keys = conforming.best.map(Suggestion.conformingRegistration)
        keys += wider.best.map(Suggestion.registeredAsSupertype)
        keys += sameSimpleName.best.map(Suggestion.sameSimpleName)
        let possible =
            conforming.count == 0
            ? possiblyConforming(to: key, in: registries, after: path, order: &order) : RankedKeys()
        keys += possible.best.map { Suggestion.possiblyConforming($0, requested: key) }
        suggestions += keys.prefix(listed)
        let found = conforming.count + wider.count + sameSimpleName.count + possible.count
        if found > listed { suggestions.append(.unlistedRegistrations(found - listed)) }
        return suggestions
    }

    /// For a resolve of a protocol (`key`), the concrete types registered with a factory that
    /// may conform to it, which no value can tell: those whose simple name begins or ends with
    /// the protocol's (`LiveHTTPClient` for `any HTTPClient`), else all of them when there are
    /// at most ``fewConcreteTypes``, but those on `path` (the resolutions that asked for it,
    /// which are not what they asked for). None for a key that is not a protocol.
    private static func possiblyConforming(
        to key: DependencyKey,
        in registries: [Registry],
        after path: [DependencyKey],
        order: inout KeyOrder
    ) -> RankedKeys {
        var byName = RankedKeys()
        var all = RankedKeys()
        guard DependencyKey.isExistential(key.type) else { return byName }
        let wanted = SimpleNames.name(of: key.type)
        let asking = Set(path.map(\.typeID))
        for (depth, registry) in registries.enumerated() {
            for (name, types) in registry.index.simpleNames.types where !name.contains("<") {
                let isNamedLike = name != wanted && (name.hasPrefix(wanted) || name.hasSuffix(wanted))
                for type in types where !DependencyKey.isExistential(type) && !asking.contains(ObjectIdentifier(type)) {
                    let id = ObjectIdentifier(type)
                    let slots =
                        [registry.unnamed(id)].compactMap { $0 } + (registry.named(id).map { Array($0.values) } ?? [])
                    for slot in slots where slot.entry.readyValue == nil {
                        let candidate = slot.entry.key
                        guard !registries[..<depth].contains(where: { $0[candidate] != nil }) else { continue }
                        if isNamedLike { byName.consider(candidate, by: &order) }
                        all.consider(candidate, by: &order)
                    }
                }
            }
        }
        if byName.count > 0 { return byName }
        return all.count <= fewConcreteTypes ? all : RankedKeys()
    }

    /// Up to this many concrete types registered with factories are all suggested for a
    /// protocol that none is named like (see `possiblyConforming`).
    static let fewConcreteTypes = 3

    /// The other names the requested type is registered under, closest first, in `registries`.
    private static func otherNames(of key: DependencyKey, in registries: [Registry]) -> Suggestion? {
        // The names of the type in each injector, the largest table first; a name in several
        // counts once.
        let tables = registries.compactMap { $0.named(key.typeID) }.sorted { $0.count > $1.count }
        var inSmallerTablesOnly: [String] = []
        for (index, table) in tables.enumerated().dropFirst() {
            for name in table.keys where !tables[..<index].contains(where: { $0[name] != nil }) {
                inSmallerTablesOnly.append(name)
            }
        }
        let hasUnnamed = key.name != nil && registries.contains { $0.unnamed(key.typeID) != nil }
        // The requested name is not registered (this is a miss), unless it was just now.
        let isRequested = key.name.map { name in tables.contains { $0[name] != nil } } ?? false
        let count =
            (tables.first?.count ?? 0) + inSmallerTablesOnly.count + (hasUnnamed ? 1 : 0) - (isRequested ? 1 : 0)
        guard count > 0 else { return nil }

        var ranking = RankedNames(to: key.name ?? "")
        // A collection's elements are named by the library, not by anyone who would type the name.
        var elements = 0
        func consider(_ name: String) {
            guard name != key.name else { return }
            if CollectionContents.isElementName(name) { elements += 1 } else { ranking.consider(name) }
        }
        if count <= rankedNames {
            if hasUnnamed { ranking.consider(nil) }
            for name in (tables.first?.keys).map(Array.init) ?? [] { consider(name) }
            for name in inSmallerTablesOnly { consider(name) }
            guard count > elements else { return nil }
        } else if let wanted = key.name {
            let bytes = registries.reduce(NameBytes()) { $0.union($1.index.nameBytes) }
            forEachNameOneEditAway(from: wanted, using: bytes) { name in
                if tables.contains(where: { $0[name] != nil }) { ranking.consider(name) }
            }
        }
        return .otherNames(ranking.best, unlisted: count - elements - ranking.best.count)
    }

    /// Calls `body` with every name one edit away from `name`: a character removed, two
    /// neighbours swapped, one replaced or one added (printable ASCII, or one of `name`'s own
    /// characters), leaving out the edits that put in a character with a byte no name
    /// registered in the injectors searched has (`bytes`), which no lookup could find. At most a few thousand lookups (a few
    /// hundred for names of a few kinds of character), whatever the number of registrations;
    /// none for a name longer than 64 characters.
    static func forEachNameOneEditAway(from name: String, using bytes: NameBytes, _ body: (String) -> Void) {
        let printable = (UInt8(0x20)...UInt8(0x7E)).filter(bytes.contains)
        if name.utf8.allSatisfy({ $0 < 0x80 }) {
            // The common case, byte by byte: each edit is a string of its bytes, built in place.
            forEachEdit(of: Array(name.utf8), with: printable) { body(String(decoding: $0, as: UTF8.self)) }
            return
        }
        let scalars = Array(name.unicodeScalars)
        var alphabet = printable.map { Unicode.Scalar($0) }
        for scalar in scalars where !alphabet.contains(scalar) && String(scalar).utf8.allSatisfy(bytes.contains) {
            alphabet.append(scalar)
        }
        forEachEdit(of: scalars, with: alphabet) { edited in
            var string = ""
            string.unicodeScalars.append(contentsOf: edited)
            body(string)
        }
    }

    /// Calls `body` with `elements` edited once in every way: one removed, two neighbours
    /// swapped, one replaced or one added (from `alphabet`). Nothing for more than 64 elements.
    private static func forEachEdit<Element: Equatable>(
        of elements: [Element],
        with alphabet: [Element],
        _ body: ([Element]) -> Void
    ) {
        guard elements.count <= 64 else { return }
        var edited = elements
        for index in elements.indices {
            edited.remove(at: index)
            body(edited)  // removed
            edited.insert(elements[index], at: index)
            if index + 1 < elements.count, elements[index] != elements[index + 1] {
                edited.swapAt(index, index + 1)
                body(edited)  // swapped
                edited.swapAt(index, index + 1)
            }
            for replacement in alphabet where replacement != elements[index] {
                edited[index] = replacement
                body(edited)  // replaced
            }
            edited[index] = elements[index]
        }
        guard let filler = alphabet.first else { return }
        for index in 0...elements.count {
            edited.insert(filler, at: index)
            for addition in alphabet {
                edited[index] = addition
                body(edited)  // added
            }
            edited.remove(at: index)
        }
    }

    /// Whether a cast of `value` depends on what it holds, not only on its type: an optional
    /// (`nil` conforms to nothing) or an `AnyHashable`.
    private static func castDependsOnContent(_ value: Any) -> Bool {
        type(of: value) is any OptionalResolvable.Type || type(of: value) == AnyHashable.self
    }
}

/// The closest names to a target, at most ``Suggestion/listed``, by edit distance, then by name
/// (`nil`, the unnamed registration, counts as the empty name and comes before equally far names).
private struct RankedNames {
    private var distance: EditDistance
    private(set) var ranked: [(distance: Int, name: String?)] = []

    init(to target: String) {
        distance = EditDistance(to: target)
    }

    var best: [String?] { ranked.map(\.name) }

    mutating func consider(_ name: String?) {
        let limit = ranked.count < Suggestion.listed ? Int.max : ranked[ranked.count - 1].distance
        guard let found = distance(name ?? "", limit: limit), !ranked.contains(where: { $0.name == name }) else {
            return
        }
        let position =
            ranked.firstIndex { found < $0.distance || (found == $0.distance && Self.precedes(name, $0.name)) }
            ?? ranked.count
        ranked.insert((found, name), at: position)
        if ranked.count > Suggestion.listed { ranked.removeLast() }
    }

    private static func precedes(_ lhs: String?, _ rhs: String?) -> Bool {
        guard let rhs else { return false }
        guard let lhs else { return true }
        return lhs < rhs
    }
}

/// The first ``Suggestion/listed`` keys in `KeyOrder`, and how many were considered.
private struct RankedKeys {
    private(set) var best: [DependencyKey] = []
    private(set) var count = 0

    mutating func consider(_ key: DependencyKey, by order: inout KeyOrder) {
        count += 1
        let position = best.firstIndex { order.precedes(key, $0) } ?? best.count
        guard position < Suggestion.listed else { return }
        best.insert(key, at: position)
        if best.count > Suggestion.listed { best.removeLast() }
    }
}

/// Closest first: a key under the requested name before others, then in the order of their
/// descriptions (type name, then name), each type named once.
private struct KeyOrder {
    let wanted: String?
    private var typeNames: [ObjectIdentifier: String] = [:]

    init(wanted: String?) {
        self.wanted = wanted
    }

    mutating func precedes(_ lhs: DependencyKey, _ rhs: DependencyKey) -> Bool {
        let (lhsWanted, rhsWanted) = (lhs.name == wanted, rhs.name == wanted)
        if lhsWanted != rhsWanted { return lhsWanted }
        let (lhsType, rhsType) = (typeName(lhs), typeName(rhs))
        if lhsType != rhsType { return lhsType < rhsType }
        guard let rhsName = rhs.name else { return false }
        guard let lhsName = lhs.name else { return true }
        return lhsName < rhsName
    }

    private mutating func typeName(_ key: DependencyKey) -> String {
        if let name = typeNames[key.typeID] { return name }
        let name = key.typeName
        typeNames[key.typeID] = name
        return name
    }
}
