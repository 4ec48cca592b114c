extension AsyncDependencyInjector {
    /// Resolves `type` under `name` here, then registers the value as an instance under the
    /// same key in the synchronous `injector`, for synchronous code (and `@Inject`).
    ///
    /// ```swift
    /// let services = AsyncDependencyInjector()
    /// await services.register(Database.self, scope: .singleton) { _ in try await Database.connect() }
    ///
    /// try await services.export(Database.self, to: .shared)
    /// let database = try DependencyInjector.shared.resolve(Database.self)  // no `await`
    /// ```
    ///
    /// A copy made now, one way: `injector` keeps this value even if the registration here
    /// changes. Export a singleton (or an instance): an exported transient is one value, which
    /// the sync injector then returns every time.
    ///
    /// - Returns: The exported value.
    /// - Throws: What ``resolve(_:name:)`` throws; `injector` is untouched then.
    @discardableResult
    public func export<T: Sendable>(
        _ type: T.Type = T.self,
        name: String? = nil,
        to injector: DependencyInjector
    ) async throws(InjectionError) -> T {
        let value = try await resolve(type, name: name)
        injector.register(value, as: type, name: name)
        return value
    }
}
