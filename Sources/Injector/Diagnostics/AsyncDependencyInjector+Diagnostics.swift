extension AsyncDependencyInjector {
    /// Resolves every registration once, off to the side, awaiting async factories, and
    /// reports every problem at once, each with its resolution path.
    ///
    /// ```swift
    /// try await services.verify()  // at start-up, or in one test
    /// ```
    ///
    /// It follows the rules of ``DependencyInjector/verify()``: no singleton of this injector
    /// (or its ancestors) is created, each key is resolved once, and edges go to ``graph()``.
    ///
    /// > Important: Every factory runs, once per resolve: side effects of factories (opening
    /// > connections) happen, and the values are dropped when `verify` returns, their
    /// > teardowns run.
    ///
    /// - Throws: ``VerificationError`` listing every failure.
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

    /// The dependencies seen so far, as a graph you can inspect or render with Graphviz.
    ///
    /// ```swift
    /// try await services.verify()
    /// print(await services.graph().dot)
    /// ```
    ///
    /// As with ``DependencyInjector/graph()``: nodes are the keys this injector can resolve,
    /// edges the resolves factories made while it (or an ancestor) was verified or observed.
    /// Call ``verify()`` first for the whole graph.
    public func graph() -> DependencyGraph {
        core.graph()
    }

    /// Calls `observer` after every resolve made through this injector, with the key, the
    /// outcome (cache hit, created, or the error) and the time it took (0 for a value read
    /// ready without a lock: see ``ResolutionEvent/durationNanoseconds``).
    ///
    /// ```swift
    /// await services.observe { event in
    ///     if event.durationNanoseconds > 5_000_000 { logger.warning("slow: \(event)") }
    /// }
    /// ```
    ///
    /// The rules of ``DependencyInjector/observe(_:)`` apply (events arrive as resolves
    /// finish, possibly from several tasks at once; later children inherit the observer; a new
    /// one replaces the old). Waiting for a singleton another resolve creates is a cache hit.
    /// Registrations a sealed injector refuses are reported too.
    public func observe(_ observer: @escaping @Sendable (ResolutionEvent) -> Void) {
        core.observe(observer)
    }

    /// Removes the observer that ``observe(_:)`` installed on this injector.
    ///
    /// ```swift
    /// await services.stopObserving()
    /// ```
    public func stopObserving() {
        core.stopObserving()
    }

    /// Every key this injector can resolve, each once, sorted by key, as
    /// ``DependencyInjector/registrations`` lists them; each ``RegistrationInfo/owner`` is an
    /// ``RegistrationInfo/Owner/asyncInjector(_:)``.
    ///
    /// ```swift
    /// for info in await services.registrations where !info.isCreated {
    ///     print("not created yet: \(info.key)")
    /// }
    /// ```
    ///
    /// An async factory is a ``RegistrationInfo/Kind/factory(_:)`` with its scope. A snapshot.
    public var registrations: [RegistrationInfo] {
        core.registrations { .asyncInjector(face(of: $0)) }
    }
}
