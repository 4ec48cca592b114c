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

    /// Resolves `type` under `name` from ``current``; see ``resolve(_:name:)-swift.method``.
    ///
    /// ```swift
    /// let foo: FooService = try DependencyInjector.resolve()
    /// ```
    public static func resolve<T>(_ type: T.Type = T.self, name: String? = nil) throws(InjectionError) -> T {
        try current.resolve(type, name: name)
    }
}
