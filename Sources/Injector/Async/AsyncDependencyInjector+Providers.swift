extension AsyncDependencyInjector {
    /// A handle that resolves `type` under `name` from this injector each time it is called.
    ///
    /// ```swift
    /// let makeSession = injector.provider(for: UserSession.self)
    /// let first = try await makeSession()
    /// let second = try await makeSession()  // a new one, if UserSession is transient
    /// ```
    public nonisolated func provider<T: Sendable>(for type: T.Type = T.self, name: String? = nil)
        -> AsyncProviderHandle<T>
    {
        AsyncProviderHandle(injector: self, name: name)
    }

    /// What a resolve of unregistered `key` returns: an ``AsyncProviderHandle``, or the error.
    nonisolated func unregistered<T>(_ key: DependencyKey, as type: T.Type) throws(InjectionError) -> T {
        if let made = (T.self as? any AsyncResolvableWithoutRegistration.Type)?.made(by: self, name: key.name) as? T {
            return made
        }
        throw .notRegistered(
            key, path: AsyncResolutionPath.keys + [key], suggestions: core.suggestions(for: key, as: T.self))
    }
}

/// `ResolvableWithoutRegistration` for the actor face (an ``AsyncProviderHandle``).
protocol AsyncResolvableWithoutRegistration {
    static func made(by injector: AsyncDependencyInjector, name: String?) -> Self
}
