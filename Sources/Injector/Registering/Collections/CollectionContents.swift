/// One injector's part of a collection (`[T]`) or map (`[K: T]`): its elements, in
/// registration order, and what it makes of its ancestors' elements.
///
/// Each element is a registration of its own, of the element type under a name no other
/// registration has, so that it keeps its own scope (a singleton element is made once), shows
/// in `registrations`, `graph()` and `verify()`, and is resolved, through the injector that
/// resolves the collection, as any key is (its own transient elements run in place, as the
/// resolve of their keys would run them). The collection's own registration, under its key,
/// is a transient whose factory gathers the elements (see
/// `DependencyInjector.collectionElements(_:)`).
struct CollectionContents {
    /// A class: gathered on every resolve of the collection, a reference is cheaper to copy
    /// than a key, a map key and a site.
    final class Element {
        /// The key of the element's registration in this injector.
        let key: DependencyKey
        /// The element's key in a map; `nil` in a collection.
        let mapKey: AnyHashable?
        let site: RegistrationSite

        init(key: DependencyKey, mapKey: AnyHashable?, site: RegistrationSite) {
            self.key = key
            self.mapKey = mapKey
            self.site = site
        }
    }

    var elements: [Element] = [] {
        didSet { gathered = nil }
    }
    /// The collection's own registration that this injector stored last (its gathering
    /// factory), and the inheritance its declaration gave: both hold only while that
    /// registration is the one stored under the collection's key. A failed module
    /// installation that declared the collection puts the previous registration back, and
    /// with it the previous inheritance; a registration of the key by hand replaces both.
    var gathering: Registration? {
        didSet { gathered = nil }
    }
    var declared = CollectionInheritance.adding {
        didSet { gathered = nil }
    }
    /// The gathering registrations an installation replaced, each with its inheritance: what
    /// a failed installation puts back under the key holds its declaration again. Emptied by
    /// the next gathering stored outside an installation, so it holds no more than one
    /// installation's.
    private var earlier: [(gathering: Registration, declared: CollectionInheritance)] = []

    /// Notes `made` as the collection's gathering registration now stored, with `declared`;
    /// `byInstallation` when an installation, which may fail and put the earlier one back,
    /// stores it.
    mutating func noteGathering(_ made: Registration, declared: CollectionInheritance, byInstallation: Bool) {
        if !byInstallation {
            earlier.removeAll()
        } else if let gathering {
            earlier.append((gathering, self.declared))
        }
        gathering = made
        self.declared = declared
    }

    /// The inheritance declared with `registration`, if it is one of the collection's
    /// gathering registrations (the last, or one a failed installation put back).
    private func declaration(of registration: Registration) -> CollectionInheritance? {
        if registration === gathering { return declared }
        return earlier.last { $0.gathering === registration }?.declared
    }

    /// One injector's part of a collection as a resolve gathers it: what it makes of its
    /// ancestors' elements, its present elements, and for each, its registration when that is
    /// a transient (else `nil`), which a resolve through this injector runs in place (see
    /// `DependencyInjector.collection(_:of:)`): no lookup of the element's name.
    struct Gathered {
        let inheritance: CollectionInheritance
        let elements: [Element]
        var transients: [Registration?]
    }

    /// What a resolve gathers here, as worked out at the registry's `slotWrites` it names: most
    /// resolves follow no write, and read it instead of looking up every element. Dropped when
    /// the contents change; a write to the registry (a re-registration, an unregistration)
    /// makes it stale.
    private var gathered: (slotWrites: Int, contents: Gathered)?

    /// What a resolve of the collection `key` gathers in `registry` (this injector's); `nil`
    /// when it has no part of the collection. What it worked out before, if stale, goes to
    /// `stale`, for the caller to release after the unlock: it may hold the last reference to
    /// a registration since replaced, whose factory's captures would be released under the lock.
    static func gathered(_ key: DependencyKey, in registry: inout Registry, stale: inout Gathered?) -> Gathered? {
        guard let contents = registry.collections[key] else { return nil }
        if let gathered = contents.gathered {
            if gathered.slotWrites == registry.slotWrites { return gathered.contents }
            stale = gathered.contents
        }
        let elements = contents.present(in: registry)
        let gathered = Gathered(
            inheritance: contents.inheritance(in: registry), elements: elements,
            transients: elements.map { element in
                guard case .factory(let registration, _)? = registry[element.key], registration.isTransient else {
                    return nil
                }
                return registration
            })
        let slotWrites = registry.slotWrites  // read apart: `collections` is a computed property
        registry.collections[key]?.gathered = (slotWrites, gathered)
        return gathered
    }

    /// The registration `registry` (this injector's) holds under the collection's key, if it is
    /// one of the collection's gatherings (not a registration of the key by hand), with the
    /// inheritance declared with it.
    func currentGathering(in registry: Registry) -> (registration: Registration, declared: CollectionInheritance)? {
        guard let gathering, case .factory(let current, _)? = registry[gathering.key],
            let declared = declaration(of: current)
        else { return nil }
        return (current, declared)
    }

    /// What the collection makes of its ancestors' elements in `registry` (this injector's).
    func inheritance(in registry: Registry) -> CollectionInheritance {
        currentGathering(in: registry)?.declared ?? .adding
    }

    /// Whether `registry` (this injector's) needs a new gathering registration: it has none
    /// under the key, or a synchronous one where an asynchronous element arrived (none when the
    /// key is registered by hand).
    func needsGathering(in registry: Registry, isAsync: Bool) -> Bool {
        guard let gathering, registry[gathering.key] != nil else { return true }
        guard let current = currentGathering(in: registry)?.registration else { return false }
        return isAsync && current.awaitedFactory == nil
    }

    /// The elements whose registrations `registry` (this injector's) still holds: an
    /// `unregister`, a refused registration or a failed module installation leaves none.
    func present(in registry: Registry) -> [Element] {
        elements.filter { registry.contains($0.key) }
    }

    /// A name for the registration of the `number`th element of a collection (`keyedBy`, the
    /// key type of a map) in an injector with `depth` ancestors, made at `site`:
    /// `element #2, MyApp/Auth.swift:12`; `element #1 keyed by Swift.String at depth 1, …`.
    ///
    /// It depends on nothing but those, so that the same registrations in a fresh injector get
    /// the same names whatever else the process did. It is unique among the keys a resolve
    /// through the injector can reach, so that no element hides another from a resolve by its
    /// key: the number, within the injector, among the elements of this collection; the key
    /// type, among the maps whose values have the element's type (an array's elements are the
    /// only ones without one); the depth, among the injectors of one chain of ancestors, where
    /// a child registering at the parent's site (a module installed in both) would otherwise
    /// override the parent's element.
    static func elementName(number: Int, keyedBy: (any Any.Type)?, depth: Int, at site: RegistrationSite) -> String {
        let map = keyedBy.map { " keyed by \(DependencyKey.name(of: $0))" } ?? ""
        let level = depth > 0 ? " at depth \(depth)" : ""
        return "element #\(number)\(map)\(level), \(site)"
    }

    /// Whether `name` is one that `elementName` gives.
    static func isElementName(_ name: String) -> Bool {
        name.hasPrefix("element #")
    }

    /// How many elements this injector has numbered for the collection (see `elementName`),
    /// counting those taken out since: a number is never given twice.
    private(set) var numbered = 0

    /// The number of the next element.
    mutating func nextNumber() -> Int {
        numbered += 1
        return numbered
    }
}

extension DependencyInjector {
    /// The elements of the collection `key` that a resolve through this injector gathers,
    /// by injector, outermost first: the nearest injector's that has the collection, and its
    /// ancestors' while each ``CollectionInheritance/adding``. `base`: the ancestor, if any,
    /// where that stops at a registration of the collection by hand, whose value comes first.
    func collectionElements(_ key: DependencyKey) -> (base: DependencyInjector?, levels: [[CollectionContents.Element]])
    {
        let (base, levels) = gatheredLevels(key)
        return (base, levels.map(\.elements))
    }

    /// What a resolve of the collection `key` through this injector gathers, by injector,
    /// outermost first (see `collectionElements(_:)`). Only this injector's own part keeps its
    /// transients, and only while it is not observed: an element of another injector is
    /// resolved through this one, by its key (this injector's overrides, a test scope's
    /// screen), and an observed resolve of an element is reported as any resolve.
    private func gatheredLevels(_ key: DependencyKey) -> (base: DependencyInjector?, [CollectionContents.Gathered]) {
        var levels: [CollectionContents.Gathered] = []
        var base: DependencyInjector?
        for holder in sequence(first: self, next: \.parent) {
            let isOwn = holder === self
            var stale: CollectionContents.Gathered?
            let found = holder.registry.withLock { registry -> CollectionContents.Gathered? in
                // An ancestor's registration of the collection by hand replaced it there: its
                // value is what the descendants' elements are added to.
                if !isOwn, registry.contains(key), registry.collections[key]?.currentGathering(in: registry) == nil {
                    base = holder
                    return nil
                }
                guard var gathered = CollectionContents.gathered(key, in: &registry, stale: &stale) else { return nil }
                if !isOwn || registry.diagnostics.instrumentation != nil { gathered.transients = [] }
                return gathered
            }
            withExtendedLifetime(stale) {}  // released here, after the unlock
            if base != nil { break }
            guard let found else { continue }
            levels.append(found)
            if found.inheritance == .replacing { break }
        }
        levels.reverse()
        return (base, levels)
    }

    /// The collection `key` (`[T]`): the value of an ancestor's registration of it by hand, if
    /// any, then each element made by this injector, into the array's storage (an
    /// unspecialised `append` looks up the array type at each element).
    func collection<T>(_ key: DependencyKey, of type: T.Type) throws(InjectionError) -> [T] {
        let (base, levels) = gatheredLevels(key)
        let first =
            try base.flatMap { base throws(InjectionError) in try handRegistered(key, as: [T].self, in: base) } ?? []
        let total = levels.reduce(first.count) { $0 + $1.elements.count }
        // Not for none: with no capacity, the initialiser writes the count into the storage
        // that every empty array shares (a race, which the thread sanitizer reports).
        if total == 0 { return [] }
        var failure: InjectionError?
        let values = [T](unsafeUninitializedCapacity: total) { buffer, count in
            for value in first {
                buffer.initializeElement(at: count, to: value)
                count += 1
            }
            for level in levels {
                for index in level.elements.indices {
                    do throws(InjectionError) {
                        buffer.initializeElement(at: count, to: try element(index, of: level, as: T.self))
                        count += 1
                    } catch {
                        failure = error
                        return
                    }
                }
            }
        }
        if let failure { throw failure }
        return values
    }

    /// The element at `index` of `level`, made by this injector: its transient run in place,
    /// as a resolve of its key here would run it (decorated by this injector's chain), when the
    /// level has it; else resolved by its key.
    private func element<T>(_ index: Int, of level: CollectionContents.Gathered, as type: T.Type)
        throws(InjectionError) -> T
    {
        if index < level.transients.count,
            let transient = level.transients[index]?.typedTransient(making: T.self)
        {
            return try make(transient)
        }
        return try resolve(T.self, name: level.elements[index].key.name)
    }

    /// The map `key` (`[K: T]`): each element resolved through this injector, a descendant's
    /// replacing an ancestor's under the same key.
    func map<K: Hashable, T>(_ key: DependencyKey, of type: T.Type, keyedBy: K.Type) throws -> [K: T] {
        let (base, levels) = collectionElements(key)
        var values =
            try base.flatMap { base throws(InjectionError) in try handRegistered(key, as: [K: T].self, in: base) }
            ?? [:]
        for level in levels {
            try Self.checkKeys(level, in: key)
            for element in level {
                guard let mapKey = element.mapKey?.base as? K else { continue }
                values[mapKey] = try resolve(T.self, name: element.key.name)
            }
        }
        return values
    }

    /// The value of the collection `key` as `base`, an ancestor, registered it by hand, resolved
    /// through this injector as if the collection's gatherings below `base` were not there: its
    /// overrides, test scopes (their screens, their own singletons) and opened scopes apply, as
    /// to any resolve. `nil` when `base` holds it no more. (The walk of `resolve(_:as:after:…)`
    /// with a `base` of its own: a parameter more there cost every level of a deep chain stack.)
    func handRegistered<C>(_ key: DependencyKey, as type: C.Type, in base: DependencyInjector) throws(InjectionError)
        -> C?
    {
        var location = locate(key, startingAt: base)
        while true {
            switch consume location {
            case .ready(let slot):
                return try slot.value(as: C.self, key: key)
            case .absent:
                return nil
            case .refused(let key, let site):
                throw Self.refusal(
                    of: key, registeredAt: site, path: ResolutionContext.current.path + [key], resolvingFrom: self)
            case .pending(let registration, let holder, let keeper):
                if let value = try produce(registration, heldBy: holder, keptBy: keeper) {
                    return try Self.cast(value, to: C.self, key: key)
                }
                location = locate(key, startingAt: base)  // replaced meanwhile: look again
            }
        }
    }

    /// Throws when an element of one injector's map has no key, or two have the same key.
    static func checkKeys(_ elements: [CollectionContents.Element], in map: DependencyKey) throws {
        var seen: [AnyHashable: RegistrationSite] = [:]
        for element in elements {
            guard let mapKey = element.mapKey else { throw MissingCollectionKey(collection: map, site: element.site) }
            if let first = seen.updateValue(element.site, forKey: mapKey) {
                throw DuplicateCollectionKey(
                    collection: map, key: String(reflecting: mapKey.base), sites: [first, element.site])
            }
        }
    }

    /// Registers what `element` makes (given its key, scope and site) as an element of
    /// `collection` (under `mapKey` in a map: without one, the map's resolve fails with
    /// ``MissingCollectionKey``), and the collection's own registration, which `gathering`
    /// makes (given the collection's key and a site), when this injector needs one (see
    /// `CollectionContents.needsGathering`): an asynchronous one (`isAsync`, the actor face's)
    /// replaces a synchronous one, so that the actor awaits every element.
    func storeElement<C: ServiceCollection>(
        into collection: C.Type,
        mapKey: C.ContributionKey?,
        scope: Scope?,
        isAsync: Bool,
        fileID: StaticString,
        line: UInt,
        element: (DependencyKey, Scope, RegistrationSite) -> Registration,
        gathering: (DependencyKey, RegistrationSite) -> Registration
    ) -> Registration {
        let collectionKey = DependencyKey(collection)
        // Reserved under the lock, so that two registrations racing into one collection get
        // two numbers, hence two keys.
        let number = registry.withLock { registry in
            registry.collections[collectionKey, default: CollectionContents()].nextNumber()
        }
        let depth = sequence(first: self, next: \.parent).dropFirst().reduce(0) { count, _ in count + 1 }
        let registration = store(scope: scope, fileID: fileID, line: line) { scope, site in
            let name = CollectionContents.elementName(number: number, keyedBy: C.keyType, depth: depth, at: site)
            return element(DependencyKey(C.Contribution.self, name: name), scope, site)
        }
        let contents = CollectionContents.Element(
            key: registration.key, mapKey: mapKey.map { AnyHashable($0) }, site: registration.site)
        let needsGathering = registry.withLock { registry in
            registry.collections[collectionKey, default: CollectionContents()].elements.append(contents)
            return registry.collections[collectionKey]?.needsGathering(in: registry, isAsync: isAsync) ?? true
        }
        if needsGathering {
            // A synchronous element under an ancestor whose elements are awaited: this
            // injector's gathering awaits them too (the ancestor's factory, which gathers through
            // the injector resolving it), so that it reaches them and its own.
            let awaited = isAsync ? nil : inheritedGathering(of: collectionKey)?.awaitedFactory
            storeGathering(collectionKey, declaring: nil, site: registration.site) { site in
                guard let awaited else {
                    return Self.collectionRegistration(C.self, key: collectionKey, site: site, gathering: gathering)
                }
                return Registration(gathering: collectionKey, by: awaited, site: site)
            }
        }
        return registration
    }

    /// Whether a declaration of `collection` here, `inheriting` as it says, gathers an element
    /// that the actor face awaits: one of this injector's own, or (adding) an ancestor's gathering
    /// that awaits them.
    func gathersAwaitedElements(of collection: DependencyKey, inheriting: CollectionInheritance) -> Bool {
        let ownAwaited = registry.withLock { registry in
            registry.collections[collection]?.present(in: registry).contains { element in
                guard case .factory(let registration, _)? = registry[element.key], case .async = registration.factory
                else { return false }
                return true
            } ?? false
        }
        return ownAwaited || (inheriting == .adding && inheritedGathering(of: collection)?.awaitedFactory != nil)
    }

    /// The gathering of `collection` that the nearest ancestor registering it holds, if that
    /// registration is one of its gatherings (not one by hand). Its factory gathers through the
    /// injector resolving it, so a descendant may take an awaited one's for its own gathering.
    func inheritedGathering(of collection: DependencyKey) -> Registration? {
        for ancestor in sequence(first: self, next: \.parent).dropFirst() {
            let found = ancestor.registry.withLock { registry -> Registration?? in
                guard registry.contains(collection) else { return nil }
                return .some(registry.collections[collection]?.currentGathering(in: registry)?.registration)
            }
            if let found { return found }
        }
        return nil
    }

    /// Declares `collection` in this injector, `inheriting` as it says: stores a new
    /// registration of it, which `gathering` makes (given the collection's key and a site;
    /// refused, as any registration, when the injector is sealed).
    func declare<C: ServiceCollection>(
        _ collection: C.Type,
        inheriting: CollectionInheritance,
        fileID: StaticString,
        line: UInt,
        gathering: (DependencyKey, RegistrationSite) -> Registration
    ) {
        let key = DependencyKey(collection)
        let site = RegistrationSite(fileID: fileID, line: line, module: Installation.current(into: self)?.module)
        let own = registry.withLock { $0.collections[key]?.currentGathering(in: $0)?.registration.awaitedFactory }
        // Declared through the sync face after an async element, or adding to an ancestor's
        // awaited elements: its elements are still awaited.
        let awaited = own ?? (inheriting == .adding ? inheritedGathering(of: key)?.awaitedFactory : nil)
        storeGathering(key, declaring: inheriting, site: site) { site in
            if let awaited { return Registration(gathering: key, by: awaited, site: site) }
            return Self.collectionRegistration(C.self, key: key, site: site, gathering: gathering)
        }
    }

    /// The registration of `collection` (under `key`): what `gathering` makes for an array or
    /// a map; for a type of one's own that adopts ``ServiceCollection``, one whose resolve
    /// says that the injector gathers arrays and maps only.
    private static func collectionRegistration<C: ServiceCollection>(
        _ collection: C.Type,
        key: DependencyKey,
        site: RegistrationSite,
        gathering: (DependencyKey, RegistrationSite) -> Registration
    ) -> Registration {
        guard C.isArray || C.isMap else {
            let error = UngatheredCollection(type: key)
            return TypedRegistration<Never>(
                { _ in throw error }, key: key, scope: .transient, site: site, completion: nil, inTests: .allowed)
        }
        return gathering(key, site)
    }

    /// Stores the collection's own registration that `make` makes, and notes it (with the
    /// inheritance `declaring` gives, else the one declared before) if it was stored.
    private func storeGathering(
        _ collection: DependencyKey,
        declaring inheritance: CollectionInheritance?,
        site: RegistrationSite,
        making make: (RegistrationSite) -> Registration
    ) {
        // Read before the store replaces the registration it holds for.
        let declared =
            inheritance
            ?? registry.withLock { registry in registry.collections[collection]?.inheritance(in: registry) ?? .adding }
        let made = store(scope: .transient, site: site) { _, site in make(site) }
        let byInstallation = Installation.current(into: self) != nil
        registry.withLock { registry in
            guard case .factory(let current, _)? = registry[collection], current === made else { return }
            registry.collections[collection, default: CollectionContents()].noteGathering(
                made, declared: declared, byInstallation: byInstallation)
        }
    }
}

extension Registration {
    /// Its factory, if it is async: an awaited gathering's, which another gathering may take.
    fileprivate var awaitedFactory: Factory? {
        guard case .async = factory else { return nil }
        return factory
    }

    /// A gathering of the collection `key` by `factory`, an awaited gathering's (which gathers
    /// through the injector resolving it, so any injector's gathering may take it).
    fileprivate convenience init(gathering key: DependencyKey, by factory: Factory, site: RegistrationSite) {
        self.init(key: key, scope: .transient, factory: factory, site: site, inTests: .allowed)
    }
}
