extension AsyncDependencyInjector {
    /// Resolves every registration off to the side, as ``DependencyInjector/verify()`` does, awaiting async factories.
    ///
    /// It runs main-actor factories (``DependencyInjector/mainActor``) on the main actor, awaiting
    /// it, where the sync face's `verify()` off the main actor skips them. A synchronous factory
    /// that resolves one passes, as there: whether it works depends on where the app resolves it
    /// (from main-actor code, or once the value, a singleton, exists), which `verify()` cannot see.
    public nonisolated func verify() async throws(VerificationError) {
        let scratch = scratchScope()
        InitializerDryRun.verifying.increment()
        defer { InitializerDryRun.verifying.decrement() }
        var verification = Verification(of: core, in: scratch.core)
        for key in verification.keys {
            var failure: InjectionError?
            // The wrappers of the objects its factories build report their failures here too.
            var wrapperFailures: Verification.WrapperFailures
            repeat {
                wrapperFailures = Verification.WrapperFailures()
                // An initializer's registration is checked, not built (see `InitializerDryRun`).
                failure = await Verification.$wrapperFailures.withValue(wrapperFailures) {
                    await InitializerDryRun.$checkingDepths.withValue([InitializerDryRun.depth]) {
                        () async -> InjectionError? in
                        do throws(InjectionError) {
                            _ = try await scratch.value(for: key)
                            return nil
                        } catch {
                            return error
                        }
                    }
                }
            } while verification.providesStandIn(after: failure)
            if let failure { verification.record(failure, resolving: key) }
            for failure in wrapperFailures.all { verification.record(failure, resolving: key) }
        }
        do {
            try await scratch.close()  // what it created is torn down
        } catch {
            verification.teardownFailures = error.failures
        }
        try verification.finish()
    }

    /// The dependencies seen so far, as ``DependencyInjector/graph()`` returns them.
    public func graph() -> DependencyGraph {
        core.graph()
    }

    /// Calls `observer` after every resolve, as ``DependencyInjector/observe(_:)`` does.
    public func observe(_ observer: @escaping @Sendable (ResolutionEvent) -> Void) {
        core.observe(observer)
    }

    /// Removes the observer, as ``DependencyInjector/stopObserving()`` does.
    public func stopObserving() {
        core.stopObserving()
    }

    /// Every key this injector can resolve, as ``DependencyInjector/registrations`` lists them; each owner is an
    /// ``RegistrationInfo/Owner/asyncInjector(_:)``.
    public var registrations: [RegistrationInfo] {
        core.registrations { .asyncInjector(face(of: $0)) }
    }
}
