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
    /// the injector their wrappers captured, even when used after the scope ends.
    ///
    /// The scope is a `child(singletons: .own)`: a singleton registered in an ancestor is built
    /// afresh inside it, with the overrides (so a mock reaches the singletons that depend on
    /// it), and dropped with it. No scope sees another's singletons or creates the ancestors'.
    @discardableResult
    public func withOverrides<Result>(
        _ overrides: (DependencyInjector) throws -> Void,
        operation: () throws -> Result
    ) rethrows -> Result {
        let scope = child(singletons: .own)
        try overrides(scope)
        return try Self.$current.withValue(scope, operation: operation)
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
    /// Child tasks (`async let`, task groups, `Task {}`) inherit the scope; `Task.detached` does not.
    @discardableResult
    public func withOverrides<Result>(
        _ overrides: (DependencyInjector) throws -> Void,
        isolation: isolated (any Actor)? = #isolation,
        operation: () async throws -> Result
    ) async rethrows -> Result {
        let scope = child(singletons: .own)
        try overrides(scope)
        return try await Self.$current.withValue(scope, operation: operation)
    }
}
