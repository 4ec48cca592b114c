extension DependencyInjector {
    /// Registers `dependency` in ``current`` under its static type, as an existing singleton.
    ///
    /// The classic hand-rolled injector's call, kept working as it is:
    ///
    /// ```swift
    /// DependencyInjector.register(dependency: Foo("Hey there!") as FooService)
    /// let foo: FooService = try DependencyInjector.resolve()
    /// ```
    public static func register<T>(dependency: T, fileID: StaticString = #fileID, line: UInt = #line) {
        current.register(dependency, fileID: fileID, line: line)
    }

    /// Registers a factory in ``current``; see ``register(_:name:scope:fileID:line:factory:)-swift.method``.
    ///
    /// ```swift
    /// DependencyInjector.register(FooService.self, scope: .singleton) { _ in Foo("Hey there!") }
    /// ```
    ///
    /// Without a `scope`, the registration takes the default scope, as the instance method's
    /// does: the installing module's, else the injector's.
    @discardableResult
    public static func register<T>(
        _ type: T.Type = T.self,
        name: String? = nil,
        scope: Scope? = nil,
        fileID: StaticString = #fileID,
        line: UInt = #line,
        factory: @escaping @Sendable (DependencyInjector) throws -> T
    ) -> Registered<T> {
        current.register(type, name: name, scope: scope, fileID: fileID, line: line, factory: factory)
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
