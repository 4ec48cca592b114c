extension AsyncDependencyInjector {
    /// The actor face's ``DependencyInjector/provider(for:name:)``; its handle awaits async factories.
    public nonisolated func provider<T: Sendable>(for type: T.Type = T.self, name: String? = nil)
        -> AsyncProviderHandle<T>
    {
        AsyncProviderHandle(injector: self, name: name)
    }

    /// What a resolve of unregistered `key` returns: an ``AsyncProviderHandle``, a
    /// ``ProviderHandle`` of ``synchronous`` (what an initializer registered on either face may
    /// take), or the error.
    nonisolated func unregistered<T>(
        _ key: DependencyKey,
        as type: T.Type,
        after frames: AsyncResolutionContext.Frames
    ) async throws(InjectionError) -> T {
        if let maker = T.self as? any AsyncResolvableWithoutRegistration.Type,
            let made = maker.made(by: self, name: key.name) as? T
        {
            return made
        }
        if let maker = T.self as? any ResolvableWithoutRegistration.Type,
            let made = maker.made(by: core, name: key.name) as? T
        {
            return made
        }
        // `T?` with no registration of its own: the `T` under that name, or `nil` without one.
        if let optional = T.self as? any OptionalResolvable.Type,
            let resolved = try await optional.wrappedValue(from: self, name: key.name, after: frames) as? T
        {
            return resolved
        }
        let path = frames.keys
        throw .notRegistered(key, path: path + [key], suggestions: core.suggestions(for: key, as: T.self, after: path))
    }
}

/// `ResolvableWithoutRegistration` for the actor face (an ``AsyncProviderHandle``).
protocol AsyncResolvableWithoutRegistration {
    static func made(by injector: AsyncDependencyInjector, name: String?) -> Self
}
