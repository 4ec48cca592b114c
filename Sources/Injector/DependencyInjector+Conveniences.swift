extension DependencyInjector {
    /// Registers `dependency` in ``current`` under its static type, as an existing singleton.
    ///
    /// The classic hand-rolled injector's call, kept working as it is:
    ///
    /// ```swift
    /// DependencyInjector.register(dependency: Foo("Hey there!") as FooService)
    /// let foo: FooService = try DependencyInjector.resolve()
    /// ```
    public static func register<T>(dependency: T) {
        current.register(dependency)
    }

    /// Registers a factory in ``current``; see ``register(_:name:scope:factory:)-swift.method``.
    ///
    /// Without a `scope`, the registration is ``Scope/transient``: unlike the instance method,
    /// this form does not take the injector's or the installing module's default scope.
    public static func register<T>(
        _ type: T.Type = T.self,
        name: String? = nil,
        scope: Scope = .transient,
        factory: @escaping @Sendable (DependencyInjector) throws -> T
    ) {
        current.register(type, name: name, scope: scope, factory: factory)
    }

    /// Resolves `type` under `name` from ``current``; see ``resolve(_:name:)-swift.method``.
    ///
    /// ```swift
    /// let foo: FooService = try DependencyInjector.resolve()
    /// ```
    public static func resolve<T>(_ type: T.Type = T.self, name: String? = nil) throws(InjectionError) -> T {
        try current.resolve(type, name: name)
    }
}
