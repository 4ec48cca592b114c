extension AsyncDependencyInjector {
    /// Resolves every registration once, off to the side, awaiting async factories, and
    /// reports every problem at once; see ``DependencyInjector/verify()``.
    ///
    /// ```swift
    /// try await services.verify()
    /// ```
    public nonisolated func verify() async throws(VerificationError) {
        let scratch = scratchScope()
        var verification = Verification(of: core, in: scratch.core)
        for key in verification.keys {
            var failure: InjectionError?
            repeat {
                // An initializer's registration is checked, not built (see `InitializerDryRun`).
                failure = await InitializerDryRun.$checkingDepths.withValue([InitializerDryRun.depth]) {
                    () async -> InjectionError? in
                    do throws(InjectionError) {
                        _ = try await scratch.value(for: key)
                        return nil
                    } catch {
                        return error
                    }
                }
            } while verification.providesStandIn(after: failure)
            if let failure { verification.record(failure, resolving: key) }
        }
        await scratch.closeReportingFailures()  // what it created is torn down
        try verification.finish()
    }

    /// The dependencies seen so far, as a graph; see ``DependencyInjector/graph()``.
    ///
    /// ```swift
    /// print(await services.graph().dot)
    /// ```
    public func graph() -> DependencyGraph {
        core.graph()
    }

    /// Calls `observer` after every resolve made through this injector; see
    /// ``DependencyInjector/observe(_:)``.
    ///
    /// ```swift
    /// await services.observe { event in logger.debug("\(event)") }
    /// ```
    public func observe(_ observer: @escaping @Sendable (ResolutionEvent) -> Void) {
        core.observe(observer)
    }

    /// Removes the observer that ``observe(_:)`` installed; see ``DependencyInjector/stopObserving()``.
    ///
    /// ```swift
    /// await services.stopObserving()
    /// ```
    public func stopObserving() {
        core.stopObserving()
    }

    /// Every key this injector can resolve, each once; see ``DependencyInjector/registrations``.
    /// Each ``RegistrationInfo/owner`` is an ``RegistrationInfo/Owner/asyncInjector(_:)``, and
    /// an async factory is a ``RegistrationInfo/Kind/factory(_:)`` with its scope.
    ///
    /// ```swift
    /// for info in await services.registrations where !info.isCreated { print(info.key) }
    /// ```
    public var registrations: [RegistrationInfo] {
        core.registrations { .asyncInjector(face(of: $0)) }
    }
}
