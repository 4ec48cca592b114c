extension AsyncDependencyInjector {
    /// Runs `operation` with a child of this injector, configured by `overrides`, as
    /// ``current``; outside, nothing has changed.
    ///
    /// ```swift
    /// try await AsyncDependencyInjector.shared.withOverrides({ scope in
    ///     await scope.register(MockMailer() as any Mailer)
    /// }) {
    ///     try await SignUp().run()  // resolves MockMailer through AsyncDependencyInjector.current
    /// }
    /// ```
    ///
    /// The rule is ``DependencyInjector/withOverrides(_:isolation:operation:)``'s. The child
    /// sees this injector's registrations, except where `overrides` replaces them. Scopes
    /// nest: an override inside another override sees both, innermost first. Leaving the
    /// scope, normally or by a throw, restores the previous ``current``. Child tasks
    /// (`async let`, task groups, `Task {}`) inherit the scope; `Task.detached` does not.
    ///
    /// The scope takes its own singleton cache (it is a `child(singletons: .own)`): a
    /// singleton registered in an ancestor is built afresh inside the scope, with the
    /// overrides, and dropped with the scope. No scope sees another's singletons, and the
    /// ancestors' own singletons are neither created nor used.
    ///
    /// Only `AsyncDependencyInjector.current` is bound; `DependencyInjector.current` is left
    /// alone (nest a `DependencyInjector.withOverrides` for both, or use the `InjectorTesting`
    /// trait, which scopes both).
    public func withOverrides<Result>(
        _ overrides: (AsyncDependencyInjector) async throws -> Void,
        isolation: isolated (any Actor)? = #isolation,
        operation: () async throws -> Result
    ) async rethrows -> Result {
        let scope = child(singletons: .own)
        try await overrides(scope)
        return try await Self.$current.withValue(scope, operation: operation)
    }
}
