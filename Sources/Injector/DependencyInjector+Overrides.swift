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
    /// The child sees this injector's registrations, except where `overrides` replaces them.
    /// Scopes nest: an override inside another override sees both, innermost first. Leaving
    /// the scope, normally or by a throw, restores the previous ``current``.
    ///
    /// The scope takes its own singleton cache (it is a `child(singletons: .own)`): a
    /// singleton registered in an ancestor is built afresh inside the scope, with the overrides (so a mock reaches the singletons that
    /// depend on it), and dropped with the scope. No scope sees another's singletons, and the
    /// ancestors' own singletons are neither created nor used.
    ///
    /// Objects created inside keep the injector they were created with (their wrappers
    /// captured it), even when they are used after the scope ends.
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
    /// Child tasks (`async let`, task groups, `Task {}`) inherit the scope;
    /// `Task.detached` does not.
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
