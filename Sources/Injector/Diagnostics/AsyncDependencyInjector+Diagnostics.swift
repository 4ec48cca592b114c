extension AsyncDependencyInjector {
    /// The actor face's ``DependencyInjector/verify()``; it awaits async factories, and runs main-actor ones
    /// (``DependencyInjector/mainActor``) on the main actor, which the sync face's skips off the main actor.
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

    /// The actor face's ``DependencyInjector/graph()``; it behaves the same.
    public func graph() -> DependencyGraph {
        core.graph()
    }

    /// The actor face's ``DependencyInjector/observe(_:)``; it behaves the same.
    public func observe(_ observer: @escaping @Sendable (ResolutionEvent) -> Void) {
        core.observe(observer)
    }

    /// The actor face's ``DependencyInjector/stopObserving()``; it behaves the same.
    public func stopObserving() {
        core.stopObserving()
    }

    /// The actor face's ``DependencyInjector/registrations``; each owner is an
    /// ``RegistrationInfo/Owner/asyncInjector(_:)``.
    public var registrations: [RegistrationInfo] {
        core.registrations { .asyncInjector(face(of: $0)) }
    }
}
