/// The copies of its ancestors' singletons (and weak instances) that a
/// `child(singletons: .own)` keeps, or of their scoped values that an opened scope keeps. Each is kept with its registration and used only while the
/// ancestor still holds that registration, so re-registering a key is seen at once.
struct InheritedSingletons {
    typealias Kept = (registration: Registration, cache: Cache)

    /// Where a copy is kept: one per key and ancestor holding a registration of it, so that
    /// the copy of a nearer ancestor's override does not replace the copy of a farther one's
    /// (which is used again once the override is removed). An ancestor outlives the child.
    private struct Place: Hashable {
        let key: DependencyKey
        let holder: ObjectIdentifier
    }

    private var kept: [Place: Kept] = [:]
    /// Whether the injector's `close()` has begun: nothing is kept from then on.
    var isClosed = false

    func value(of registration: Registration, heldBy holder: DependencyInjector) -> Any? {
        guard let stored = kept[Place(key: registration.key, holder: ObjectIdentifier(holder))],
            stored.registration === registration
        else { return nil }
        return stored.cache.value
    }

    /// Keeps `value` as what `registration` produced; returns what it replaces.
    /// Forgets the copies kept for the registrations whose scope `resets`; returns them.
    mutating func dropValues(ofScopes resets: (Scope) -> Bool) -> [Kept] {
        var dropped: [Kept] = []
        kept = kept.filter { _, copy in
            guard resets(copy.registration.scope) else { return true }
            dropped.append(copy)
            return false
        }
        return dropped
    }

    /// Keeps `value` as what `registration` produced, unless closed; returns what it replaces.
    /// Keeps nothing from now on; returns every copy.
    mutating func close() -> [Kept] {
        isClosed = true
        return Array(exchange(&kept, with: [:]).values)
    }

    mutating func keep(_ value: Any, producedBy registration: Registration, heldBy holder: DependencyInjector)
        -> Kept?
    {
        guard !isClosed, let cache = Cache(keeping: value, producedBy: registration) else { return nil }
        return kept.updateValue(
            (registration, cache), forKey: Place(key: registration.key, holder: ObjectIdentifier(holder)))
    }
}

extension DependencyInjector {
    /// What this injector keeps for `registration`, held by `holder`, an ancestor.
    func keptValue(of registration: Registration, heldBy holder: DependencyInjector) -> Any? {
        copies(of: registration)?.withLock { $0.value(of: registration, heldBy: holder) }
    }

    /// Keeps a copy of `value`, made by `registration` held by `holder`, an ancestor, unless
    /// this injector is closed; the teardown of a copy it replaces is for the caller to run.
    func keep(_ value: Any, producedBy registration: Registration, heldBy holder: DependencyInjector)
        -> SingletonCreation.Keeping
    {
        guard let copies = copies(of: registration) else { return SingletonCreation.Keeping() }
        let (replaced, isClosed) = copies.withLock { copies in
            (copies.keep(value, producedBy: registration, heldBy: holder), copies.isClosed)
        }
        return SingletonCreation.Keeping(isClosed: isClosed, letGo: [replaced?.cache.teardown].compactMap { $0 })
    }

    /// Closes this injector's copies: nothing is kept from now on; returns what was kept.
    func closeCopies() -> [InheritedSingletons.Kept] {
        var closed: [InheritedSingletons.Kept] = []
        for copies in [inheritedSingletons, scopedValues] {
            guard let copies else { continue }
            closed += copies.withLock { $0.close() }
        }
        return closed
    }

    /// Where this injector keeps copies of `registration`'s values: an opened scope's scoped
    /// values, or a `.own` child's inherited singletons.
    private func copies(of registration: Registration) -> Locked<InheritedSingletons>? {
        registration.isScoped ? scopedValues : inheritedSingletons
    }
}
