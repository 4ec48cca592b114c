extension AsyncDependencyInjector {
    /// Registers a factory whose value is an element of the collection `[T]`; the rules are
    /// those of ``DependencyInjector/register(into:scope:fileID:line:factory:)``.
    ///
    /// ```swift
    /// await server.register(into: [any Middleware].self) { _ in RequestLogging() }
    /// await server.register(into: [any Middleware].self, scope: .singleton) { r in
    ///     try await Auth(keys: r.resolve())
    /// }
    /// let middleware = try await server.resolve([any Middleware].self)
    /// ```
    @discardableResult
    public func register<T: Sendable>(
        into collection: [T].Type,
        scope: Scope? = nil,
        fileID: StaticString = #fileID,
        line: UInt = #line,
        factory: @escaping @Sendable (AsyncDependencyInjector) async throws -> T
    ) -> AsyncRegistered<T> {
        let key = DependencyKey(collection)
        let registration = core.storeElement(
            of: T.self, in: key, mapKey: nil, scope: scope, isAsync: true, fileID: fileID, line: line,
            element: { key, scope, site in Registration(key: key, scope: scope, factory: .async(factory), site: site) },
            gathering: { site in
                Registration(
                    key: key, scope: .transient, factory: .async { r in try await r.collection(key, of: T.self) },
                    site: site, inTests: .allowed)
            })
        return AsyncRegistered(base: Registered(injector: core, registration: registration))
    }

    /// Registers a factory whose value is the element under `key` of the map `[Key: T]`; the
    /// rules are those of ``DependencyInjector/register(into:key:scope:fileID:line:factory:)``.
    ///
    /// ```swift
    /// await server.register(into: [String: any Route].self, key: "/users") { _ in UsersRoute() }
    /// let routes = try await server.resolve([String: any Route].self)
    /// ```
    @discardableResult
    public func register<Key: Hashable & Sendable, T: Sendable>(
        into map: [Key: T].Type,
        key: Key,
        scope: Scope? = nil,
        fileID: StaticString = #fileID,
        line: UInt = #line,
        factory: @escaping @Sendable (AsyncDependencyInjector) async throws -> T
    ) -> AsyncRegistered<T> {
        let mapKey = DependencyKey(map)
        let registration = core.storeElement(
            of: T.self, in: mapKey, mapKey: AnyHashable(key), scope: scope, isAsync: true, fileID: fileID, line: line,
            element: { key, scope, site in Registration(key: key, scope: scope, factory: .async(factory), site: site) },
            gathering: { site in Self.gathering(mapKey, of: T.self, keyedBy: Key.self, site: site) })
        return AsyncRegistered(base: Registered(injector: core, registration: registration))
    }

    /// Declares the collection `[T]`; see
    /// ``DependencyInjector/declareCollection(_:inheriting:fileID:line:)-([T].,_,_,_)``.
    ///
    /// ```swift
    /// await server.declareCollection([any AnalyticsSink].self)
    /// ```
    public func declareCollection<T: Sendable>(
        _ collection: [T].Type,
        inheriting: CollectionInheritance = .adding,
        fileID: StaticString = #fileID,
        line: UInt = #line
    ) {
        let key = DependencyKey(collection)
        core.declare(key, inheriting: inheriting, fileID: fileID, line: line) { site in
            Registration(
                key: key, scope: .transient, factory: .async { r in try await r.collection(key, of: T.self) },
                site: site, inTests: .allowed)
        }
    }

    /// Declares the map `[Key: T]`; see
    /// ``DependencyInjector/declareCollection(_:inheriting:fileID:line:)-([T].,_,_,_)``.
    ///
    /// ```swift
    /// await server.declareCollection([String: any Route].self)
    /// ```
    public func declareCollection<Key: Hashable & Sendable, T: Sendable>(
        _ map: [Key: T].Type,
        inheriting: CollectionInheritance = .adding,
        fileID: StaticString = #fileID,
        line: UInt = #line
    ) {
        let key = DependencyKey(map)
        core.declare(key, inheriting: inheriting, fileID: fileID, line: line) { site in
            Self.gathering(key, of: T.self, keyedBy: Key.self, site: site)
        }
    }

    /// The registration of the map `key`, a transient that gathers its elements.
    private nonisolated static func gathering<Key: Hashable & Sendable, T: Sendable>(
        _ key: DependencyKey,
        of type: T.Type,
        keyedBy: Key.Type,
        site: RegistrationSite
    ) -> Registration {
        Registration(
            key: key, scope: .transient, factory: .async { r in try await r.map(key, of: T.self, keyedBy: Key.self) },
            site: site, inTests: .allowed)
    }

    /// The collection `key` (`[T]`): each element resolved through this face.
    nonisolated func collection<T: Sendable>(_ key: DependencyKey, of type: T.Type) async throws(InjectionError) -> [T]
    {
        var values: [T] = []
        for level in core.collectionElements(key) {
            for element in level { values.append(try await resolve(T.self, name: element.key.name)) }
        }
        return values
    }

    /// The map `key` (`[K: T]`): each element resolved through this face.
    nonisolated func map<K: Hashable & Sendable, T: Sendable>(
        _ key: DependencyKey,
        of type: T.Type,
        keyedBy: K.Type
    ) async throws -> [K: T] {
        var values: [K: T] = [:]
        for level in core.collectionElements(key) {
            try DependencyInjector.checkUnique(level, in: key)
            for element in level {
                guard let mapKey = element.mapKey?.base as? K else { continue }
                values[mapKey] = try await resolve(T.self, name: element.key.name)
            }
        }
        return values
    }
}
