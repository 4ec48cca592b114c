extension DependencyInjector {
    /// Every key this injector can resolve, each once: its own registrations and those it
    /// inherits (an override hides the ancestor's registration of the same key), sorted by key.
    ///
    /// ```swift
    /// for info in injector.registrations where !info.isCreated {
    ///     print("not created yet: \(info.key)")
    /// }
    /// ```
    ///
    /// It is a snapshot: registrations made, and singletons created, afterwards are not in it.
    public var registrations: [RegistrationInfo] {
        registrations { .injector($0) }
    }

    /// ``registrations``, each owner shown as `shown` gives it: the injector itself, or the
    /// actor face whose core it is.
    func registrations(showingOwnersAs shown: (DependencyInjector) -> RegistrationInfo.Owner) -> [RegistrationInfo] {
        var found: [RegistrationInfo] = []
        var seen: Set<DependencyKey> = []
        // The nearest injector, on the way up, that keeps its own copies of inherited singletons.
        var keeper: DependencyInjector?
        var injector: DependencyInjector? = self
        while let current = injector {
            for (key, entry) in current.registry.withLock({ $0.entries }) where seen.insert(key).inserted {
                found.append(
                    Self.info(
                        key: key, entry: entry, owner: current, shownAs: shown(current), keeper: keeper, lister: self))
            }
            if keeper == nil, current.inheritedSingletons != nil { keeper = current }
            injector = current.parent
        }
        return found.sorted { $0.key.description < $1.key.description }
    }

    private static func info(
        key: DependencyKey,
        entry: Entry,
        owner: DependencyInjector,
        shownAs shownOwner: RegistrationInfo.Owner,
        keeper: DependencyInjector?,
        lister: DependencyInjector
    ) -> RegistrationInfo {
        switch entry {
        case .instance:
            return RegistrationInfo(
                key: key, kind: .instance, isCreated: true, owner: shownOwner, isInherited: owner !== lister)
        case .factory(let registration, let cache):
            // Below a keeper, an inherited singleton exists only once the keeper has made its copy.
            let isCreated: Bool
            if let keeper, keeper !== owner {
                isCreated = keeper.keptValue(of: registration) != nil
            } else {
                isCreated = cache.value != nil
            }
            return RegistrationInfo(
                key: key, kind: .factory(registration.scope), isCreated: isCreated, owner: shownOwner,
                isInherited: owner !== lister)
        }
    }
}
