/// The copies of its ancestors' singletons (and weak instances) that a
/// `child(singletons: .own)` keeps. Each is kept with its registration and used only while the
/// ancestor still holds that registration, so re-registering a key is seen at once.
struct InheritedSingletons {
    typealias Kept = (registration: Registration, cache: Cache)

    private var kept: [DependencyKey: Kept] = [:]

    func value(of registration: Registration) -> Any? {
        guard let stored = kept[registration.key], stored.registration === registration else { return nil }
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

    mutating func keep(_ value: Any, producedBy registration: Registration) -> Kept? {
        guard let cache = Cache(keeping: value, for: registration.scope) else { return nil }
        return kept.updateValue((registration, cache), forKey: registration.key)
    }
}

extension DependencyInjector {
    /// What this injector keeps for `registration`, held by an ancestor.
    func keptValue(of registration: Registration) -> Any? {
        inheritedSingletons?.withLock { $0.value(of: registration) }
    }

    func keep(_ value: Any, producedBy registration: Registration) {
        inheritedSingletons?.update { $0.keep(value, producedBy: registration) }
    }
}
