extension AsyncDependencyInjector {
    /// Registers an async factory that builds `type`, under `name`, for `scope`.
    ///
    /// ```swift
    /// await injector.register(Database.self, scope: .singleton) { _ in
    ///     try await Database.connect(to: "postgres://localhost/app")
    /// }
    /// await injector.register(UserRepository.self) { r in
    ///     try await UserRepository(database: r.resolve())
    /// }
    /// ```
    ///
    /// The factory receives the injector that is building the value, to resolve the value's
    /// own dependencies. Any error it throws reaches the caller of `resolve` as
    /// ``InjectionError/factoryFailed(_:path:underlying:)``; an ``InjectionError`` passes
    /// through unchanged.
    ///
    /// A singleton's (or weak instance's) factory runs in a task that belongs to the injector,
    /// so it is not cancelled with the caller that happened to ask first. A transient's factory
    /// runs in the caller's task and sees its cancellation.
    ///
    /// Registering a key again replaces the earlier registration and drops the singleton it
    /// may have created (a creation still running is not kept).
    public func register<T: Sendable>(
        _ type: T.Type = T.self,
        name: String? = nil,
        scope: Scope = .transient,
        factory: @escaping @Sendable (AsyncDependencyInjector) async throws -> T
    ) {
        core.store(key: DependencyKey(type, name: name), scope: scope, factory: .async(factory))
    }

    /// Registers an existing value under `type` (by default the value's static type), as a
    /// singleton that already exists.
    ///
    /// ```swift
    /// await injector.register(PostgresConfig(host: "localhost"))
    /// await injector.register(SMTPMailer() as any Mailer)
    /// await injector.register("https://example.com", name: "baseURL")
    /// ```
    ///
    /// > Important: The key is the type you register *as*, exactly as with
    /// > ``DependencyInjector/register(_:as:name:)``.
    public func register<T: Sendable>(_ instance: T, as type: T.Type = T.self, name: String? = nil) {
        core.register(instance, as: type, name: name)
    }

    /// Removes this injector's registration of `type` under `name`, and the singleton it may
    /// have created.
    ///
    /// ```swift
    /// await injector.unregister(Database.self)
    /// ```
    ///
    /// Removing a key that is not registered does nothing. Ancestors are not touched.
    public func unregister<T>(_ type: T.Type, name: String? = nil) {
        core.unregister(type, name: name)
    }

    /// Whether `type` under `name` is registered in this injector or one of its ancestors.
    ///
    /// ```swift
    /// if await !injector.isRegistered(Database.self) { … }
    /// ```
    public func isRegistered<T>(_ type: T.Type, name: String? = nil) async -> Bool {
        core.isRegistered(type, name: name)
    }
}
