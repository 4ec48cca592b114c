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
    /// It is a test scope, `strict` if asked, with the rules of
    /// ``DependencyInjector/withOverrides(strict:allowing:_:isolation:operation:)``: child tasks
    /// inherit it, `Task.detached` does not; test doubles
    /// (``AsyncRegistered/inTests(fileID:line:_:)``) stand in for the ancestors' registrations.
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
