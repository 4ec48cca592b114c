/// The singletons (and weak instances) that a child made with `child(singletons: .own)` builds
/// and keeps itself for registrations held by its ancestors, guarded by that injector's
/// `inheritedSingletons` lock.
///
/// Normally an ancestor's singleton is created and kept by the ancestor, so every descendant
/// shares it. A child that keeps its inherited singletons builds them afresh, with its own
/// registrations (so its overrides apply), keeps them for as long as it lives, and never
/// creates or reads the ancestors' copies. Test scopes (`withOverrides`, the testing trait)
/// are such children, and `verify()` resolves in one so that the real injector's singletons
/// are not created.
///
/// Values are stored by key together with the registration that produced them: a value is
/// used only while that registration is still the one the ancestor holds, so re-registering a
/// key in an ancestor is seen at the next resolve.
struct InheritedSingletons {
    typealias Kept = (registration: Registration, cache: Cache)

    private var kept: [DependencyKey: Kept] = [:]

    func value(of registration: Registration) -> Any? {
        guard let stored = kept[registration.key], stored.registration === registration else { return nil }
        return stored.cache.value
    }

    /// Keeps `value` as what `registration` produced. Returns what it replaces (a copy made by
    /// an earlier registration of the key), for the caller to release after the unlock.
    mutating func keep(_ value: Any, producedBy registration: Registration) -> Kept? {
        switch registration.scope {
        case .transient:
            return nil
        case .singleton, .eagerSingleton:
            return kept.updateValue((registration, .strong(value)), forKey: registration.key)
        case .weak:
            // Only a class instance can be held weakly; anything else is made anew each time.
            guard type(of: value) is AnyObject.Type else { return nil }
            return kept.updateValue(
                (registration, .weak(WeakReference(object: value as AnyObject))), forKey: registration.key)
        }
    }
}

extension DependencyInjector {
    /// What this injector keeps for `registration`, held by an ancestor.
    func keptValue(of registration: Registration) -> Any? {
        inheritedSingletons?.withLock { $0.value(of: registration) }
    }

    func keep(_ value: Any, producedBy registration: Registration) {
        // A stale copy replaced here is released after the unlock: its `deinit` may resolve
        // through this injector.
        inheritedSingletons?.update { $0.keep(value, producedBy: registration) }
    }
}
