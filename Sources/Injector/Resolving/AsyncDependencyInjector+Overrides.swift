extension AsyncDependencyInjector {
    /// The actor face's ``DependencyInjector/withOverrides(strict:allowing:_:isolation:operation:)``. Where
    /// ``DependencyInjector/current`` is this injector's ``synchronous``, it binds that to the scope too: one scope for
    /// both faces.
    @discardableResult
    public func withOverrides<Result>(
        strict: Bool = false,
        allowing: [any Any.Type] = [],
        _ overrides: (AsyncDependencyInjector) async throws -> Void,
        isolation: isolated (any Actor)? = #isolation,
        operation: () async throws -> Result
    ) async rethrows -> Result {
        let recorder = TestIssueRecorder.currentOrRunningTest
        let scope = testChild(strict: strict, allowing: allowing, recorder: recorder)
        do {
            try await overrides(scope)
            // The other face's `current` too, where it is this injector's.
            let result = try await TestIssueRecorder.binding(recorder) {
                DependencyInjector.current === core
                    ? try await DependencyInjector.$current.withValue(scope.core) {
                        try await Self.$current.withValue(scope, operation: operation)
                    }
                    : try await Self.$current.withValue(scope, operation: operation)
            }
            await scope.closeReportingFailuresUncancelled()
            return result
        } catch {
            await scope.closeReportingFailuresUncancelled()
            throw error
        }
    }
}
