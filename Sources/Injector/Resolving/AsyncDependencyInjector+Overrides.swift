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
    /// The rules are ``DependencyInjector/withOverrides(strict:allowing:_:isolation:operation:)``'s: scopes nest
    /// (innermost first), leaving one restores ``current``, child tasks inherit it but
    /// `Task.detached` does not, and the scope keeps its own singletons: its ancestors' are
    /// built afresh inside it, with the overrides, and dropped with it.
    ///
    /// It is a test scope, `strict` if asked, as ``DependencyInjector``'s is: test doubles
    /// (``AsyncRegistered/inTests(fileID:line:_:)``) stand in for the ancestors'
    /// registrations, and a strict scope refuses the others unless they are allowed.
    ///
    /// Only `AsyncDependencyInjector.current` is bound (nest a `DependencyInjector.withOverrides`
    /// for both, or use the `InjectorTesting` trait, which scopes both).
    @discardableResult
    public func withOverrides<Result>(
        strict: Bool = false,
        allowing: [any Any.Type] = [],
        _ overrides: (AsyncDependencyInjector) async throws -> Void,
        isolation: isolated (any Actor)? = #isolation,
        operation: () async throws -> Result
    ) async rethrows -> Result {
        let scope = testChild(strict: strict, allowing: allowing)
        do {
            try await overrides(scope)
            let result = try await Self.$current.withValue(scope, operation: operation)
            await scope.closeReportingFailures()
            return result
        } catch {
            await scope.closeReportingFailures()
            throw error
        }
    }
}
