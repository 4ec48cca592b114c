extension AsyncDependencyInjector {
    /// Resolves every registration off to the side, as ``DependencyInjector/verify()`` does, awaiting async factories.
    ///
    /// It runs main-actor factories (``DependencyInjector/mainActor``) on the main actor, awaiting
    /// it, where the sync face's `verify()` off the main actor skips them. A synchronous factory
    /// that resolves one is reported (every resolve of it off the main actor throws
    /// ``InjectionError/requiresMainActor(_:path:)``), unless the value is kept once made, as a
    /// singleton is: it is made on the main actor first, as an app must, and the factory passes.
    public nonisolated func verify() async throws(VerificationError) {
        let scratch = scratchScope()
        InitializerDryRun.verifying.increment()
        defer { InitializerDryRun.verifying.decrement() }
        var verification = Verification(of: core, in: scratch.core, awaitsMainActor: true)
        for key in verification.keys {
            var failure: InjectionError?
            // The wrappers of the objects its factories build report their failures here too.
            var wrapperFailures: Verification.WrapperFailures
            // Those of the wrappers in a main-actor value made first (see below).
            let madeFirst = Verification.WrapperFailures()
            var again: Bool
            repeat {
                wrapperFailures = Verification.WrapperFailures()
                failure = await scratch.verificationFailure(of: key, reportingTo: wrapperFailures)
                again = verification.providesStandIn(after: failure)
                // A synchronous factory that needs a main-actor value: the value made first, on
                // the main actor, and the factory run again (see `Verification.mainActorValue`).
                if !again, let needed = verification.mainActorValue(neededAfter: failure, or: wrapperFailures) {
                    again = await scratch.verificationFailure(of: needed, reportingTo: madeFirst) == nil
                }
            } while again
            if let failure { verification.record(failure, resolving: key) }
            for failure in wrapperFailures.all + madeFirst.all { verification.record(failure, resolving: key) }
        }
        do {
            try await scratch.close()  // what it created is torn down
        } catch {
            verification.teardownFailures = error.failures
        }
        try verification.finish()
    }

    /// What resolving `key` in this scratch scope of `verify()` throws, if anything; the
    /// wrappers of the objects its factories build report their failures to `wrapperFailures`.
    private nonisolated func verificationFailure(
        of key: DependencyKey,
        reportingTo wrapperFailures: Verification.WrapperFailures
    ) async -> InjectionError? {
        await Verification.$wrapperFailures.withValue(wrapperFailures) {
            // An initializer's registration is checked, not built (see `InitializerDryRun`).
            await InitializerDryRun.$checkingDepths.withValue([InitializerDryRun.depth]) {
                () async -> InjectionError? in
                do throws(InjectionError) {
                    _ = try await value(for: key)
                    return nil
                } catch {
                    return error
                }
            }
        }
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
