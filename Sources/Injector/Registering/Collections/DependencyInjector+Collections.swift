extension DependencyInjector {
    /// Registers a factory whose value is an element of the collection `[T]`: each module adds
    /// its own, and nobody keeps a central list (middleware, analytics sinks, plugins).
    ///
    /// ```swift
    /// app.register(into: [any Middleware].self) { _ in RequestLogging() }
    /// app.register(into: [any Middleware].self, scope: .singleton) { r in try Auth(keys: r.resolve()) }
    ///
    /// let middleware = try app.resolve([any Middleware].self)  // [RequestLogging, Auth]
    /// ```
    ///
    /// The collection holds the elements in the order they were registered, an ancestor's
    /// before its descendants' (see ``CollectionInheritance``). Each element is a registration
    /// of its own, with its own scope (a singleton element is made once), under a name that
    /// says its place in the collection and where it was registered
    /// (`element #2, MyApp/Auth.swift:12`); `registrations`, ``graph()`` and ``verify()`` show
    /// it as such. The collection itself is a transient: each resolve gathers the elements, through
    /// the injector that resolves it, so a test scope's overrides reach their dependencies.
    /// `@Inject var middleware: [any Middleware]` injects it.
    ///
    /// A collection that no injector contributes to is not registered: its resolve throws
    /// ``InjectionError/notRegistered(_:path:suggestions:)``, so a module left out is an
    /// error, not an empty array. One that may be empty is declared:
    /// ``declareCollection(_:inheriting:fileID:line:)-([T].,_,_,_)``.
    @discardableResult
    public func register<T>(
        into collection: [T].Type,
        scope: Scope? = nil,
        fileID: StaticString = #fileID,
        line: UInt = #line,
        factory: @escaping @Sendable (DependencyInjector) throws -> T
    ) -> Registered<T> {
        let key = DependencyKey(collection)
        let registration = storeElement(
            of: T.self, in: key, mapKey: nil, scope: scope, isAsync: false, fileID: fileID, line: line,
            element: { key, scope, site in TypedRegistration(factory, key: key, scope: scope, site: site) },
            gathering: { site in Self.gathering(key, of: T.self, site: site) })
        return Registered(injector: self, registration: registration)
    }

    /// Registers a factory whose value is the element under `key` of the map `[Key: T]`:
    /// each module adds its own entries (routes, handlers by name, features by flag).
    ///
    /// ```swift
    /// app.register(into: [String: any Route].self, key: "/users") { _ in UsersRoute() }
    /// app.register(into: [String: any Route].self, key: "/orders") { r in try OrdersRoute(db: r.resolve()) }
    ///
    /// let routes = try app.resolve([String: any Route].self)
    /// ```
    ///
    /// The rules are those of ``register(into:scope:fileID:line:factory:)``. Two elements under
    /// one key in one injector make the map's resolve (and ``verify()``) fail with
    /// ``DuplicateCollectionKey``, which names both registrations; a descendant's element
    /// replaces an ancestor's under the same key (an override).
    @discardableResult
    public func register<Key: Hashable & Sendable, T>(
        into map: [Key: T].Type,
        key: Key,
        scope: Scope? = nil,
        fileID: StaticString = #fileID,
        line: UInt = #line,
        factory: @escaping @Sendable (DependencyInjector) throws -> T
    ) -> Registered<T> {
        let mapKey = DependencyKey(map)
        let registration = storeElement(
            of: T.self, in: mapKey, mapKey: AnyHashable(key), scope: scope, isAsync: false, fileID: fileID, line: line,
            element: { key, scope, site in TypedRegistration(factory, key: key, scope: scope, site: site) },
            gathering: { site in Self.gathering(mapKey, of: T.self, keyedBy: Key.self, site: site) })
        return Registered(injector: self, registration: registration)
    }

    /// Declares the collection `[T]`, which then resolves even with no element (to `[]`), and
    /// says what it makes of the ancestors' elements.
    ///
    /// ```swift
    /// app.declareCollection([any AnalyticsSink].self)  // no sink is fine
    /// try app.resolve([any AnalyticsSink].self)  // []
    ///
    /// let test = app.child()
    /// test.declareCollection([any AnalyticsSink].self, inheriting: .replacing)
    /// test.register(into: [any AnalyticsSink].self) { _ in RecordingSink() }  // the test's only
    /// ```
    ///
    /// Dagger's `@Multibinds`: a module that is left out is then an empty collection, which
    /// only a declaration allows.
    public func declareCollection<T>(
        _ collection: [T].Type,
        inheriting: CollectionInheritance = .adding,
        fileID: StaticString = #fileID,
        line: UInt = #line
    ) {
        let key = DependencyKey(collection)
        declare(key, inheriting: inheriting, fileID: fileID, line: line) { site in
            Self.gathering(key, of: T.self, site: site)
        }
    }

    /// Declares the map `[Key: T]`; see ``declareCollection(_:inheriting:fileID:line:)-([T].,_,_,_)``.
    ///
    /// ```swift
    /// app.declareCollection([String: any Route].self)
    /// ```
    public func declareCollection<Key: Hashable & Sendable, T>(
        _ map: [Key: T].Type,
        inheriting: CollectionInheritance = .adding,
        fileID: StaticString = #fileID,
        line: UInt = #line
    ) {
        let key = DependencyKey(map)
        declare(key, inheriting: inheriting, fileID: fileID, line: line) { site in
            Self.gathering(key, of: T.self, keyedBy: Key.self, site: site)
        }
    }

    /// The registration of the collection `key`, a transient that gathers its elements.
    /// Allowed in strict test scopes: it makes nothing of its own, and each element is
    /// screened as the registration it is.
    private static func gathering<T>(_ key: DependencyKey, of type: T.Type, site: RegistrationSite) -> Registration {
        TypedRegistration<[T]>(
            { r in try r.collection(key, of: T.self) }, key: key, scope: .transient, site: site, completion: nil,
            inTests: .allowed)
    }

    /// The registration of the map `key`, a transient that gathers its elements.
    private static func gathering<Key: Hashable & Sendable, T>(
        _ key: DependencyKey,
        of type: T.Type,
        keyedBy: Key.Type,
        site: RegistrationSite
    ) -> Registration {
        TypedRegistration<[Key: T]>(
            { r in try r.map(key, of: T.self, keyedBy: Key.self) }, key: key, scope: .transient, site: site,
            completion: nil, inTests: .allowed)
    }
}
