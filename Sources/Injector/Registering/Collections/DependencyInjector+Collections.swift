extension DependencyInjector {
    /// Registers a factory whose value is an element of the collection `[T]`, or, with `key`,
    /// the entry under `key` of the map `[Key: T]`: each module adds its own, and nobody keeps
    /// a central list (middleware, analytics sinks, plugins; routes by path).
    ///
    /// ```swift
    /// app.register(into: [any Middleware].self) { _ in RequestLogging() }
    /// app.register(into: [any Middleware].self, scope: .singleton) { r in try Auth(keys: r.resolve()) }
    /// app.register(into: [String: any Route].self, key: "/users") { _ in UsersRoute() }
    ///
    /// let middleware = try app.resolve([any Middleware].self)  // [RequestLogging, Auth]
    /// let routes = try app.resolve([String: any Route].self)  // ["/users": UsersRoute]
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
    /// An array's elements take no `key` (its type is `Never?`). Every entry of a map needs
    /// one: an entry registered without it, or two under one key in one injector, make the
    /// map's resolve (and ``verify()``) fail with ``MissingCollectionKey`` or
    /// ``DuplicateCollectionKey``, which name the registrations; a descendant's entry replaces
    /// an ancestor's under the same key (an override).
    ///
    /// A collection that no injector contributes to is not registered: its resolve throws
    /// ``InjectionError/notRegistered(_:path:suggestions:)``, so a module left out is an
    /// error, not an empty array. One that may be empty is declared:
    /// ``declareCollection(_:inheriting:fileID:line:)``.
    @discardableResult
    public func register<C: ServiceCollection>(
        into collection: C.Type,
        key: C.ContributionKey? = nil,
        scope: Scope? = nil,
        fileID: StaticString = #fileID,
        line: UInt = #line,
        factory: @escaping @Sendable (DependencyInjector) throws -> C.Contribution
    ) -> Registered<C.Contribution> where C.ContributionKey: Sendable {
        let registration = storeElement(
            into: collection, mapKey: key, scope: scope, isAsync: false, fileID: fileID, line: line,
            element: { elementKey, scope, site in
                TypedRegistration(factory, key: elementKey, scope: scope, site: site)
            },
            gathering: { collectionKey, site in Self.gathering(collectionKey, as: C.self, site: site) })
        return Registered(injector: self, registration: registration)
    }

    /// Declares the collection `[T]` or the map `[Key: T]`, which then resolves even with no
    /// element (to `[]`, `[:]`), and says what it makes of the ancestors' elements.
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
    public func declareCollection<C: ServiceCollection>(
        _ collection: C.Type,
        inheriting: CollectionInheritance = .adding,
        fileID: StaticString = #fileID,
        line: UInt = #line
    ) where C.ContributionKey: Sendable {
        declare(collection, inheriting: inheriting, fileID: fileID, line: line) { key, site in
            Self.gathering(key, as: C.self, site: site)
        }
    }

    /// The registration of the collection `key` (a `C`), a transient that gathers its
    /// elements. Allowed in strict test scopes: it makes nothing of its own, and each element
    /// is screened as the registration it is.
    ///
    /// Its value type is `[C.Contribution]` or `[C.ContributionKey: C.Contribution]`: `C`
    /// itself, since only an array or a map gets here (see `collectionRegistration`).
    static func gathering<C: ServiceCollection>(
        _ key: DependencyKey,
        as collection: C.Type,
        site: RegistrationSite
    ) -> Registration where C.ContributionKey: Sendable {
        if C.isArray {
            return TypedRegistration<[C.Contribution]>(
                { r in try r.collection(key, of: C.Contribution.self) }, key: key, scope: .transient, site: site,
                completion: nil, inTests: .allowed)
        }
        return TypedRegistration<[C.ContributionKey: C.Contribution]>(
            { r in try r.map(key, of: C.Contribution.self, keyedBy: C.ContributionKey.self) }, key: key,
            scope: .transient, site: site, completion: nil, inTests: .allowed)
    }
}
