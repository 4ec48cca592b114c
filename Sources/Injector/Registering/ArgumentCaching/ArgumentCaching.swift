/// How a factory that takes run-time arguments keeps the values it makes: one per argument
/// tuple, a session per user ID, a client per tenant
/// (``DependencyInjector/register(_:name:caching:teardown:fileID:line:factory:)``).
///
/// ```swift
/// injector.register(TenantClient.self, caching: .strong(limit: 100)) { (r, tenant: TenantID) in
///     try TenantClient(tenant: tenant, http: r.resolve())
/// }
/// ```
public struct ArgumentCaching: Hashable, Sendable {
    /// Whether values are held weakly.
    let isWeak: Bool
    /// How many values are kept at most, the least recently used let go first; `nil`: no bound.
    let limit: Int?

    /// Keeps every value strongly, until the key is reset (``DependencyInjector/reset(_:name:)``).
    public static let strong = ArgumentCaching(isWeak: false, limit: nil)

    /// Keeps at most `limit` values strongly, letting go of the least recently used.
    ///
    /// A value that a resolve is still being handed is not let go: its creator tears down what
    /// the bound let go before returning it, and meanwhile it stays, over the bound, until the
    /// next creation. Once returned, a value may be let go (and torn down) while its caller
    /// still uses it, when `limit` other tuples are used since: keep the bound above the
    /// number of values in use at once, or hold them with ``weak``.
    public static func strong(limit: Int) -> ArgumentCaching {
        ArgumentCaching(isWeak: false, limit: max(1, limit))
    }

    /// Keeps each value weakly: shared while something else holds it, made again after. A
    /// value that is not a class instance cannot be held weakly and is made on every resolve.
    public static let weak = ArgumentCaching(isWeak: true, limit: nil)

    /// The lifetime of the values it keeps, as a captive dependency names it
    /// (``InjectionError/captiveDependency(_:path:holder:holderScope:)``): the named scope
    /// `caching: .strong(limit: 100)`, which outlives opened scopes as every named scope does.
    /// A scope of its own, not ``Scope/singleton``, so that the message names what was written.
    var lifetime: Scope { .named(Self.lifetimePrefix + description) }

    /// What begins the name of an argument cache's ``lifetime``.
    static let lifetimePrefix = "caching: "
}

extension ArgumentCaching: CustomStringConvertible {
    /// The caching as written in code: `.strong`, `.strong(limit: 100)` or `.weak`.
    public var description: String {
        if isWeak { return ".weak" }
        return limit.map { ".strong(limit: \($0))" } ?? ".strong"
    }
}

extension Scope {
    /// Whether this is an argument cache's lifetime (see `ArgumentCaching.lifetime`), which a
    /// captive dependency's fix line tells apart from a scope the user can change.
    var isArgumentCaching: Bool {
        guard case .named(let name) = self else { return false }
        return name.hasPrefix(ArgumentCaching.lifetimePrefix)
    }
}

extension DependencyInjector {
    /// Registers a factory that takes run-time arguments and keeps one value per argument
    /// tuple, as `caching` says: a session per user ID, a client per tenant.
    ///
    /// ```swift
    /// injector.register(UserSession.self, caching: .strong(limit: 50)) { (r, userID: UUID) in
    ///     try UserSession(id: userID, api: r.resolve())
    /// }
    /// let session = try injector.resolve(UserSession.self, arguments: userID)  // made once per ID
    /// try injector.reset(UserSession.self)  // every session let go, at logout
    /// ```
    ///
    /// The arguments must be `Hashable` (a tuple that is not does not compile). Each tuple's
    /// value is made once, however many threads ask for it at once; the rest is
    /// ``register(_:name:fileID:line:factory:)``'s, whose values it keeps.
    ///
    /// A value that needs closing says so with `teardown`, which runs once for each value the
    /// cache lets go, outside any lock: past its bound, on a reset of the key, when the
    /// registration is replaced or removed, and on ``close()`` of the injector that keeps the
    /// values, latest first. A value held weakly (``ArgumentCaching/weak``) is its holders' and
    /// is not torn down. After that `close()`, a resolve that would make a value throws
    /// ``InjectionError/closed(_:path:)`` before any factory runs.
    ///
    /// The values outlive opened scopes: a factory that asks for a ``Scope/scoped`` value
    /// throws ``InjectionError/captiveDependency(_:path:holder:holderScope:)``.
    ///
    /// ```swift
    /// injector.register(TenantClient.self, caching: .strong(limit: 100), teardown: { $0.disconnect() }) {
    ///     (r, tenant: TenantID) in try TenantClient(tenant: tenant, http: r.resolve())
    /// }
    /// ```
    public func register<T, First: Hashable & Sendable, each Rest: Hashable & Sendable>(
        _ type: T.Type = T.self,
        name: String? = nil,
        caching: ArgumentCaching,
        teardown: (@Sendable (T) throws -> Void)? = nil,
        fileID: StaticString = #fileID,
        line: UInt = #line,
        factory: @escaping @Sendable (DependencyInjector, First, repeat each Rest) throws -> T
    ) {
        let key = DependencyKey(type, name: name)
        let close = teardown.map { close in
            Registration.Teardown.sync { value in try close(Self.cast(value, to: T.self, key: key)) }
        }
        store(
            key: key,
            scope: .transient,
            factory: .taking(
                First.self, repeat (each Rest).self,
                make: .sync { injector, arguments in
                    let (first, rest) = try Registration.unpack(arguments, as: (First, (repeat each Rest)).self)
                    var tuple: [AnyHashable] = [AnyHashable(first)]
                    repeat tuple.append(AnyHashable(each rest))
                    return try injector.cachedValue(of: key, caching: caching, teardown: close, for: tuple) { keeper in
                        try factory(keeper, first, repeat each rest)
                    }
                }),
            caching: caching,
            fileID: fileID,
            line: line
        )
    }

    /// The value of `key`'s registration (which takes arguments) for the argument `tuple`, as
    /// a resolve through this injector finds it: kept by the injector that would keep the
    /// registration's singleton (its holder, or a `.own` child such as a test scope, so that
    /// no child's override reaches another's values and tests see none of each other's), and
    /// made by it (`make` gets it), once.
    func cachedValue(
        of key: DependencyKey,
        caching: ArgumentCaching,
        teardown: Registration.Teardown?,
        for tuple: [AnyHashable],
        make: (DependencyInjector) throws -> Any
    ) throws -> Any {
        let context = ResolutionContext.current
        let (cache, keeper) = try argumentCache(of: key, caching: caching, teardown: teardown)
        // Decorated where it is made, before the cache keeps it (see `Registration.decoratesOwnValues`).
        guard let cache else { return try decoratedIfAny(make(self), key: key, in: context) }
        return try cache.value(for: tuple, of: key, context: context) {
            try keeper.decoratedIfAny(make(keeper), key: key, in: context)
        }
    }

    /// The cache of `key`'s registration (which takes arguments) that a resolve through this
    /// injector uses, and its keeper; no cache when the walk finds no factory to run.
    ///
    /// - Throws: ``InjectionError/closed(_:path:)`` once the keeper is closed: nothing is kept
    ///   after `close()`, as for a singleton.
    func argumentCache(
        of key: DependencyKey,
        caching: ArgumentCaching,
        teardown: Registration.Teardown?
    ) throws(InjectionError) -> (ArgumentCache?, DependencyInjector) {
        let found: (Registration, DependencyInjector)?
        switch locate(key) {
        case .pending(let registration, _, let keeper): found = (registration, keeper)
        default: found = nil  // never for a factory that takes arguments: made as it is
        }
        guard let (registration, keeper) = found else { return (nil, self) }
        let (cache, replaced) = keeper.registry.withLock {
            registry -> (ArgumentCache?, (registration: Registration, cache: ArgumentCache)?) in
            guard !registry.isClosed else { return (nil, nil) }
            if let kept = registry.argumentCaches[key], kept.registration === registration { return (kept.cache, nil) }
            let cache = ArgumentCache(caching, of: key, teardown: teardown, keptBy: keeper)
            // The pair leaves the lock whole: its registration is released after the unlock.
            return (cache, registry.argumentCaches.updateValue((registration, cache), forKey: key))
        }
        // A replaced registration's values, torn down and released after the unlock.
        if let replaced { keeper.tearDown(replaced.cache.removeAll()) }
        guard let cache else { throw .closed(key, path: Self.runningPath(endingAt: key)) }
        return (cache, keeper)
    }
}

extension AsyncDependencyInjector {
    /// Registers an async factory that takes run-time arguments and keeps one value per
    /// argument tuple, as `caching` says; the rules are those of
    /// ``DependencyInjector/register(_:name:caching:teardown:fileID:line:factory:)``.
    ///
    /// ```swift
    /// await server.register(TenantClient.self, caching: .strong(limit: 100)) { (r, tenant: TenantID) in
    ///     try await TenantClient.connect(tenant, http: r.resolve())
    /// }
    /// ```
    ///
    /// A resolve that finds the tuple's value being created awaits that creation. `teardown`
    /// may await; a value let go outside ``close()`` is torn down in a task that `close()`
    /// awaits.
    public func register<T: Sendable, First: Hashable & Sendable, each Rest: Hashable & Sendable>(
        _ type: T.Type = T.self,
        name: String? = nil,
        caching: ArgumentCaching,
        teardown: (@Sendable (T) async throws -> Void)? = nil,
        fileID: StaticString = #fileID,
        line: UInt = #line,
        factory: @escaping @Sendable (AsyncDependencyInjector, First, repeat each Rest) async throws -> T
    ) {
        let key = DependencyKey(type, name: name)
        let close = teardown.map { close in
            Registration.Teardown.async { value in try await close(DependencyInjector.cast(value, to: T.self, key: key))
            }
        }
        core.store(
            key: key,
            scope: .transient,
            factory: .taking(
                First.self, repeat (each Rest).self,
                make: .async { injector, arguments in
                    let (first, rest) = try Registration.unpack(arguments, as: (First, (repeat each Rest)).self)
                    var tuple: [AnyHashable] = [AnyHashable(first)]
                    repeat tuple.append(AnyHashable(each rest))
                    let (cache, keeper) = try injector.core.argumentCache(of: key, caching: caching, teardown: close)
                    guard let cache else {
                        return try await injector.decoratedIfAny(factory(injector, first, repeat each rest), key: key)
                    }
                    let face = injector.face(of: keeper)
                    // Decorated where it is made, before the cache keeps it.
                    return try await cache.value(for: tuple, as: T.self) {
                        try await face.decoratedIfAny(factory(face, first, repeat each rest), key: key)
                    }
                }),
            caching: caching,
            fileID: fileID,
            line: line
        )
    }
}
