/// The copies of its ancestors' singletons (and weak instances) that a
/// `child(singletons: .own)` keeps, or of their scoped values that an opened scope keeps. Each
/// is kept with its registration and used only while the ancestor still holds that
/// registration, so re-registering a key is seen at once.
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

    /// Copies, with room for `capacity` before the first growth (a request's few scoped values).
    init(capacity: Int = 0) {
        kept = Dictionary(minimumCapacity: capacity)
    }

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
    /// What `close()` takes out: the teardowns to run, and the copies, to release after the
    /// unlock.
    struct Closed {
        var teardowns: [PendingTeardown] = []
        fileprivate var released: [Place: Kept] = [:]
    }

    /// Keeps nothing from now on; returns every copy.
    mutating func close() -> Closed {
        isClosed = true
        let released = exchange(&kept, with: [:])
        var teardowns: [PendingTeardown] = []
        for copy in released.values {
            if let teardown = copy.cache.teardown { teardowns.append(teardown) }
        }
        return Closed(teardowns: teardowns, released: released)
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
        var keeping = SingletonCreation.Keeping(isClosed: isClosed)
        if let teardown = replaced?.cache.teardown { keeping.letGo.append(teardown) }
        return keeping
    }

    /// Closes this injector's copies: nothing is kept from now on; returns what was kept.
    func closeCopies() -> [InheritedSingletons.Closed] {
        var closed: [InheritedSingletons.Closed] = []
        if let copies = inheritedSingletons { closed.append(copies.withLock { $0.close() }) }
        if let copies = scopedValues { closed.append(copies.withLock { $0.close() }) }
        return closed
    }

    /// Where this injector keeps copies of `registration`'s values: an opened scope's scoped
    /// values, or a `.own` child's inherited singletons.
    private func copies(of registration: Registration) -> Locked<InheritedSingletons>? {
        registration.isScoped ? scopedValues : inheritedSingletons
    }
}
