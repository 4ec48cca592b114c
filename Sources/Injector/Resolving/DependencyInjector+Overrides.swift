extension DependencyInjector {
    /// Runs `operation` with a child of this injector, configured by `overrides`, as
    /// ``current``; outside, nothing has changed.
    ///
    /// ```swift
    /// try DependencyInjector.shared.withOverrides({ $0.register(MockPayments() as PaymentService) }) {
    ///     let checkout = Checkout()  // @Inject resolves MockPayments
    ///     try checkout.pay()
    /// }
    /// ```
    ///
    /// Scopes nest: an override inside another sees both, innermost first. Leaving the scope,
    /// normally or by a throw, restores the previous ``current``. Objects created inside keep
    /// the injector their wrappers captured, even when used after the scope ends; the scope is
    /// closed then, so what it would still have to build (its copy of a singleton, a scoped
    /// value) throws ``InjectionError/closed(_:path:)``.
    ///
    /// The scope keeps its own singletons: a singleton registered in an ancestor is built
    /// afresh inside it, with the overrides (so a mock reaches the singletons that depend on
    /// it), and dropped with it. No scope sees another's singletons or creates the ancestors'.
    ///
    /// Where ``AsyncDependencyInjector/current`` is this injector's actor face (one root, as the
    /// shared faces are), it is the scope's too: one scope for both faces.
    ///
    /// It is a test scope: an ancestor's registration with a test double
    /// (``Registered/inTests(fileID:line:_:)``) resolves with the double. A `strict` scope
    /// refuses the ancestors' other registrations — the app's, which the test did not
    /// override — with ``InjectionError/notProvidedInTest(_:path:registeredAt:)``, unless
    /// they are allowed (``Registered/allowedInTests()``, or their type is in `allowing`):
    ///
    /// ```swift
    /// try app.withOverrides(strict: true, allowing: [Clock.self], { $0.register(MockPayments() as PaymentService) }) {
    ///     try Checkout.make().pay()  // any other service of the app's that it resolves is an error
    /// }
    /// ```
    @discardableResult
    public func withOverrides<Result>(
        strict: Bool = false,
        allowing: [any Any.Type] = [],
        _ overrides: (DependencyInjector) throws -> Void,
        operation: () throws -> Result
    ) rethrows -> Result {
        let recorder = TestIssueRecorder.currentOrRunningTest
        let scope = testChild(TestScope(isStrict: strict, allowing: allowing, recorder: recorder))
        defer { scope.closeReportingFailures() }
        try overrides(scope)
        return try TestIssueRecorder.binding(recorder) {
            guard let face = actorFace(of: scope) else {
                return try Self.$current.withValue(scope, operation: operation)
            }
            return try AsyncDependencyInjector.$current.withValue(face) {
                try Self.$current.withValue(scope, operation: operation)
            }
        }
    }

    /// The actor face of `scope`, a test scope of this injector, where
    /// ``AsyncDependencyInjector/current`` is this injector's: `withOverrides` binds it too.
    private func actorFace(of scope: DependencyInjector) -> AsyncDependencyInjector? {
        let actor = AsyncDependencyInjector.current
        return actor.core === self ? actor.face(ofChild: scope) : nil
    }

    /// Runs the asynchronous `operation` with a child of this injector, configured by
    /// `overrides`, as ``current``; outside, nothing has changed.
    ///
    /// ```swift
    /// try await DependencyInjector.shared.withOverrides({ $0.register(MockPayments() as PaymentService) }) {
    ///     try await Checkout().pay()
    /// }
    /// ```
    ///
    /// Child tasks (`async let`, task groups, `Task {}`) inherit the scope; `Task.detached` does
    /// not. `strict` and `allowing` are those of the synchronous form.
    @discardableResult
    public func withOverrides<Result>(
        strict: Bool = false,
        allowing: [any Any.Type] = [],
        _ overrides: (DependencyInjector) throws -> Void,
        isolation: isolated (any Actor)? = #isolation,
        operation: () async throws -> Result
    ) async rethrows -> Result {
        let recorder = TestIssueRecorder.currentOrRunningTest
        let scope = testChild(TestScope(isStrict: strict, allowing: allowing, recorder: recorder))
        guard let face = actorFace(of: scope) else {
            defer { scope.closeReportingFailures() }
            try overrides(scope)
            return try await TestIssueRecorder.binding(recorder) {
                try await Self.$current.withValue(scope, operation: operation)
            }
        }
        // Closed by the actor face, which awaits the async teardowns of what it made there.
        do {
            try overrides(scope)
            let result = try await TestIssueRecorder.binding(recorder) {
                try await AsyncDependencyInjector.$current.withValue(face) {
                    try await Self.$current.withValue(scope, operation: operation)
                }
            }
            await face.closeReportingFailuresUncancelled()
            return result
        } catch {
            await face.closeReportingFailuresUncancelled()
            throw error
        }
    }
}
