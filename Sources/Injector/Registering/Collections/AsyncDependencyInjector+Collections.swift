extension AsyncDependencyInjector {
    /// The actor face's ``DependencyInjector/register(into:key:scope:fileID:line:factory:)``, its factory async and
    /// given the run's ``AsyncResolver``.
    @discardableResult
    public func register<C: ServiceCollection>(
        into collection: C.Type,
        key: C.ContributionKey? = nil,
        scope: Scope? = nil,
        fileID: StaticString = #fileID,
        line: UInt = #line,
        factory: @escaping @Sendable (AsyncResolver) async throws -> C.Contribution
    ) -> AsyncRegistered<C.Contribution> where C.Contribution: Sendable, C.ContributionKey: Sendable {
        let registration = core.storeElement(
            into: collection, mapKey: key, scope: scope, isAsync: true, fileID: fileID, line: line,
            element: { elementKey, scope, site in
                Registration(key: elementKey, scope: scope, factory: .async(factory), site: site)
            },
            gathering: { collectionKey, site in Self.gathering(collectionKey, as: C.self, site: site) })
        return AsyncRegistered(base: Registered(injector: core, registration: registration))
    }

    /// The actor face's ``DependencyInjector/declareCollection(_:inheriting:fileID:line:)``. While none of the elements
    /// it gathers is the actor face's, the sync face resolves it too; the first async element makes it awaited.
    public func declareCollection<C: ServiceCollection>(
        _ collection: C.Type,
        inheriting: CollectionInheritance = .adding,
        fileID: StaticString = #fileID,
        line: UInt = #line
    ) where C.Contribution: Sendable, C.ContributionKey: Sendable {
        let awaits = core.gathersAwaitedElements(of: DependencyKey(collection), inheriting: inheriting)
        core.declare(collection, inheriting: inheriting, fileID: fileID, line: line) { key, site in
            awaits
                ? Self.gathering(key, as: C.self, site: site)
                : DependencyInjector.gathering(key, as: C.self, site: site)
        }
    }

    /// The registration of the collection `key` (a `C`), a transient that gathers its
    /// elements, each awaited (see `DependencyInjector.gathering(_:as:site:)`).
    private nonisolated static func gathering<C: ServiceCollection>(
        _ key: DependencyKey,
        as collection: C.Type,
        site: RegistrationSite
    ) -> Registration where C.Contribution: Sendable, C.ContributionKey: Sendable {
        if C.isArray {
            return Registration(
                key: key, scope: .transient,
                factory: .async { r in try await r.collection(key, of: C.Contribution.self) },
                site: site, inTests: .allowed)
        }
        return Registration(
            key: key, scope: .transient,
            factory: .async { r in try await r.map(key, of: C.Contribution.self, keyedBy: C.ContributionKey.self) },
            site: site, inTests: .allowed)
    }
}

extension AsyncResolver {
    /// The collection `key` (`[T]`): each element resolved through this run.
    func collection<T: Sendable>(_ key: DependencyKey, of type: T.Type) async throws(InjectionError) -> [T] {
        let (base, levels) = injector.core.collectionElements(key)
        var values: [T] = []
        if let base { values = try await value(of: key, from: base) }
        for level in levels {
            for element in level { values.append(try await resolve(T.self, name: element.key.name)) }
        }
        return values
    }

    /// The map `key` (`[K: T]`): each element resolved through this run.
    func map<K: Hashable & Sendable, T: Sendable>(
        _ key: DependencyKey,
        of type: T.Type,
        keyedBy: K.Type
    ) async throws -> [K: T] {
        let (base, levels) = injector.core.collectionElements(key)
        var values: [K: T] = [:]
        if let base { values = try await value(of: key, from: base) }
        for level in levels {
            try DependencyInjector.checkKeys(level, in: key)
            for element in level {
                guard let mapKey = element.mapKey?.base as? K else { continue }
                values[mapKey] = try await resolve(T.self, name: element.key.name)
            }
        }
        return values
    }

    /// The collection `key` as `holder` registered it by hand, resolved through this run as if
    /// the gatherings below `holder` were not there (see `DependencyInjector.handRegistered`).
    private func value<Collection: Sendable>(
        of key: DependencyKey,
        from holder: DependencyInjector
    ) async throws(InjectionError) -> Collection {
        try await injector.resolve(
            key, as: Collection.self, observed: false, after: frames, resolverTask: task, startingAt: holder
        ) { key throws(InjectionError) in throw .notRegistered(key, path: frames.keys + [key], suggestions: []) }
    }
}
