extension AsyncDependencyInjector {
    /// Runs `operation` with a test scope of this injector, configured by `overrides`, as ``current``, as
    /// ``DependencyInjector/withOverrides(strict:allowing:_:isolation:operation:)`` does. Only
    /// `AsyncDependencyInjector.current` is bound: the `InjectorTesting` trait scopes both faces.
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
