import Dispatch

extension DependencyInjector {
    /// Calls `observer` after every resolve made through this injector, with the key, the
    /// outcome (cache hit, created, or the error) and the time it took.
    ///
    /// ```swift
    /// injector.observe { event in
    ///     if event.durationNanoseconds > 5_000_000 { logger.warning("slow: \(event)") }
    /// }
    /// ```
    ///
    /// Events arrive as resolves finish (a factory's resolves before the resolve that ran it),
    /// on the resolving thread, with no lock held; `observer` may be called from several
    /// threads at once, and is not told of its own resolves. A new one replaces the old.
    ///
    /// Children created after this call inherit the observer; earlier children and ancestors
    /// are not affected. A child can install its own or call ``stopObserving()``. While no
    /// observer is installed (the default), a resolve pays one load and one branch for this.
    public func observe(_ observer: @escaping @Sendable (ResolutionEvent) -> Void) {
        let instrumentation = Instrumentation(observer: observer)
        registry.update { exchange(&$0.diagnostics.instrumentation, with: instrumentation) }
    }

    /// Removes the observer that ``observe(_:)`` installed on this injector.
    ///
    /// ```swift
    /// injector.stopObserving()
    /// ```
    public func stopObserving() {
        registry.update { exchange(&$0.diagnostics.instrumentation, with: nil) }
    }

    /// A new child starts with its parent's observer.
    func inheritObserver(from parent: DependencyInjector) {
        guard let inherited = parent.registry.withLock({ $0.diagnostics.instrumentation }),
            inherited.observer != nil
        else { return }
        registry.update { exchange(&$0.diagnostics.instrumentation, with: inherited) }
    }

    /// A resolve while this injector is instrumented: records the edge, tells the observer.
    func instrumentedResolve<T>(
        _ key: DependencyKey,
        as type: T.Type,
        ifAbsent: (DependencyKey) throws(InjectionError) -> T
    ) throws(InjectionError) -> T {
        func plainResolve() throws(InjectionError) -> T {
            try resolve(key, as: type, after: nil, instrumented: false, ifAbsent: ifAbsent)
        }
        let context = ResolutionContext.current
        guard let observer = instrument(key, resolvedBy: context.innermost?.key) else { return try plainResolve() }
        let runsBefore = context.factoryRuns
        let start = DispatchTime.now().uptimeNanoseconds
        // No `Result<T, …>`: its metadata, looked up on every call in this generic code, cost
        // as much as the resolve.
        do {
            let value = try plainResolve()
            let outcome: ResolutionEvent.Outcome = context.factoryRuns != runsBefore ? .created : .cached
            notify(observer, of: key, path: context.path + [key], outcome: outcome, since: start)
            return value
        } catch {
            notify(observer, of: key, path: context.path + [key], outcome: .failed(error), since: start)
            throw error
        }
    }

    /// Records the edge from `resolver` (the key whose factory is resolving, if any) to `key`
    /// for ``graph()``, and returns the observer to tell, if any (not for its own resolves).
    func instrument(_ key: DependencyKey, resolvedBy resolver: DependencyKey?) -> Observer? {
        // Read again: it may have been removed since the lookup saw it.
        guard let instrumentation = registry.withLock({ $0.diagnostics.instrumentation }),
            !ResolutionContext.current.isNotifyingObserver
        else { return nil }
        if let resolver { recordEdge(from: resolver, to: key) }
        return instrumentation.observer
    }

    /// Tells `observer` how a resolve of `key` that began at `start` (uptime nanoseconds) ended.
    func notify(
        _ observer: Observer, of key: DependencyKey, path: [DependencyKey], outcome: ResolutionEvent.Outcome,
        since start: UInt64
    ) {
        let elapsed = DispatchTime.now().uptimeNanoseconds &- start
        let event = ResolutionEvent(key: key, path: path, outcome: outcome, durationNanoseconds: elapsed)
        // The observer runs on this thread, whose flag keeps its own resolves quiet.
        let context = ResolutionContext.current
        context.isNotifyingObserver = true
        defer { context.isNotifyingObserver = false }
        observer(event)
    }

    /// Tells the observer, if any, that a sealed injector refused to change `key`.
    func reportRefusal(of key: DependencyKey) {
        guard let observer = registry.withLock({ $0.diagnostics.instrumentation?.observer }) else { return }
        observer(ResolutionEvent(key: key, path: [key], outcome: .refused, durationNanoseconds: 0))
    }

    /// Counts a factory run, which tells a cache hit from a miss. (Edges are recorded only by
    /// `instrumentedResolve`: recording them here made a transient with three dependencies
    /// 1.5 times slower for a graph nobody had asked for.)
    func noteFactoryRun(of registration: Registration, in context: ResolutionContext) {
        context.factoryRuns &+= 1
    }

    private func recordEdge(from resolver: DependencyKey, to dependency: DependencyKey) {
        let edge = DependencyGraph.Edge(from: resolver, to: dependency)
        registry.withLock { _ = $0.diagnostics.edges.insert(edge) }
    }
}
