/// The copies of its ancestors' singletons (and weak instances) that a
/// `child(singletons: .own)` keeps; an opened scope keeps their scoped values in
/// `ScopedValues`. Each is kept with its registration and used only while the ancestor still
/// holds that registration, so re-registering a key is seen at once.
struct InheritedSingletons {
    typealias Kept = (registration: Registration, cache: Cache)

    /// Where a copy is kept: one per key and ancestor holding a registration of it, so that
    /// the copy of a nearer ancestor's override does not replace the copy of a farther one's
    /// (which is used again once the override is removed). An ancestor outlives the child.
    fileprivate struct Place: Hashable {
        let key: DependencyKey
        let holder: ObjectIdentifier
    }

    private var kept: [Place: Kept]
    /// Whether the injector's `close()` has begun: nothing is kept from then on.
    var isClosed = false

    init() {
        kept = [:]
    }

    /// The copy kept for `registration`, `.closed` when none is and none will be.
    func kept(_ registration: Registration, heldBy holder: DependencyInjector) -> SingletonCreation.Start? {
        if let value = value(of: registration, heldBy: holder) { return .ready(value) }
        return isClosed ? .closed : nil
    }

    func value(of registration: Registration, heldBy holder: DependencyInjector) -> Any? {
        guard let stored = kept[Place(key: registration.key, holder: ObjectIdentifier(holder))],
            stored.registration === registration
        else { return nil }
        return stored.cache.value
    }

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

    /// Forgets the copy kept for `key` held by `holder`; returns it.
    mutating func dropValue(of key: DependencyKey, heldBy holder: DependencyInjector) -> Kept? {
        kept.removeValue(forKey: Place(key: key, holder: ObjectIdentifier(holder)))
    }

    /// Keeps nothing from now on; returns every copy, for the caller to tear down and release
    /// after the unlock.
    mutating func close() -> [Kept] {
        isClosed = true
        return Array(exchange(&kept, with: [:]).values)
    }

    /// Keeps `value` as what `registration` produced, unless closed; returns what it replaces.
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
        if registration.isScoped { return scopedValues?.withLock { $0.value(of: registration, heldBy: holder) } }
        return inheritedSingletons?.withLock { $0.value(of: registration, heldBy: holder) }
    }

    /// What this injector keeps for `registration`, held by `holder`, an ancestor, for a
    /// creation about to start: the value, `.closed` once its `close()` has begun (nothing
    /// is built for a closed keeper), or `nil`.
    func kept(_ registration: Registration, heldBy holder: DependencyInjector) -> SingletonCreation.Start? {
        if registration.isScoped { return scopedValues?.withLock { $0.kept(registration, heldBy: holder) } }
        return inheritedSingletons?.withLock { $0.kept(registration, heldBy: holder) }
    }

    /// Keeps a copy of `value`, made by `registration` held by `holder`, an ancestor, unless
    /// this injector is closed; the teardown of a copy it replaces is for the caller to run.
    func keep(_ value: Any, producedBy registration: Registration, heldBy holder: DependencyInjector)
        -> SingletonCreation.Keeping
    {
        // What keeping replaces leaves the lock whole, registration included: released there,
        // the last reference to a replaced registration would release its factory's captures.
        var keeping = SingletonCreation.Keeping()
        if registration.isScoped {
            guard let scoped = scopedValues else { return keeping }
            let replaced: ScopedValues.Kept?
            (replaced, keeping.isClosed) = scoped.withLock { scoped in
                (scoped.keep(value, producedBy: registration, heldBy: holder).replaced, scoped.isClosed)
            }
            if let teardown = replaced?.teardown { keeping.letGo.append(teardown) }
        } else if let copies = inheritedSingletons {
            let replaced: InheritedSingletons.Kept?
            (replaced, keeping.isClosed) = copies.withLock { copies in
                (copies.keep(value, producedBy: registration, heldBy: holder), copies.isClosed)
            }
            if let teardown = replaced?.cache.teardown { keeping.letGo.append(teardown) }
        }
        return keeping
    }
}
