import Dispatch

extension DependencyInjector {
    /// Calls `observer` after every resolve made through this injector, with the key, the
    /// outcome (cache hit, created, or the error) and the time it took (0 for a value read
    /// ready without a lock: see ``ResolutionEvent/durationNanoseconds``).
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
    /// observer is installed (the default), a ready resolve pays nothing for this; while one
    /// is, ready values are still read without a lock, then reported.
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
            notify(observer, of: key, resolvers: context.path, outcome: outcome, since: start, in: context)
            return value
        } catch {
            notify(observer, of: key, resolvers: context.path, outcome: .failed(error), since: start, in: context)
            throw error
        }
    }

    /// `resolve(_:name:)` while resolves are observed: a value (or a transient's factory)
    /// found in the observed table is resolved and reported without the registry lock, as
    /// the hot path resolves it unobserved (see `PublishedTable.observedSlot`); anything else
    /// takes the locked path, which reports it too (`instrumentedResolve`).
    @inline(never)
    func observedResolve<T>(_ type: T.Type, name: String?) throws(InjectionError) -> T {
        var instrumentation: Instrumentation?
        let found = ready.observedSlot(for: ObjectIdentifier(T.self), name: name, instrumentation: &instrumentation)
        guard let found else {
            // What `resolveLocked` does while instrumented, without looking here again.
            return try resolve(DependencyKey(T.self, name: name), as: T.self, after: nil, instrumented: true) {
                key throws(InjectionError) in try unregistered(key, as: T.self)
            }
        }
        // A ready value, reported from code that is not generic (see `reportReadValue`).
        // `take()`: moved, not copied, which would cost a retain and a release.
        if found.transient == nil, let instrumentation = instrumentation.take() {
            do {
                let value = try found.value(as: T.self, name: name, in: self)
                reportReadValue(of: T.self, name: name, outcome: .cached, to: instrumentation)
                return value
            } catch {
                reportReadValue(of: T.self, name: name, outcome: .failed(error), to: instrumentation)
                throw error
            }
        }
        let context = ResolutionContext.current
        return try value(
            of: found, as: T.self, name: name, observedBy: instrumentation, resolvedBy: context.innermost?.key,
            after: context.path, on: context)
    }

    /// `reportReadValue(of:name:outcome:to:resolvedBy:after:in:)` for a resolve on this
    /// thread, whose context says which factory asked and what led there, read in place. Not
    /// generic, unlike its caller: unspecialised generic code pays for every value it moves.
    @inline(never)
    func reportReadValue(
        of type: any Any.Type, name: String?, outcome: ResolutionEvent.Outcome, to instrumentation: Instrumentation
    ) {
        ResolutionContext.withCurrent { context in
            // An observer's own resolves are not reported (see `notify`).
            guard !context.isNotifyingObserver else { return }
            reportReadValue(
                of: type, name: name, outcome: outcome, to: instrumentation, resolvedBy: context.innermost?.key,
                after: context.path, in: context)
        }
    }

    /// The value of `found`, a slot of the observed table that carries `instrumentation`, as
    /// `T` under `name`, reported to its observer: cached, or created when `found` is a
    /// transient's factory. `resolver`: the key whose factory asked for it, if any; `path`: the
    /// resolves that led here; `context`: this thread's. For both faces (a published factory
    /// is synchronous).
    func value<T>(
        of found: consuming ProtectedSlot,
        as type: T.Type,
        name: String?,
        observedBy instrumentation: Instrumentation?,
        resolvedBy resolver: @autoclosure () -> DependencyKey?,
        after path: @autoclosure () -> [DependencyKey],
        on context: ResolutionContext = .current
    ) throws(InjectionError) -> T {
        // An observer's own resolves are not reported (see `notify`).
        guard let instrumentation, !context.isNotifyingObserver else {
            return try found.value(as: T.self, name: name, in: self)
        }
        if found.transient == nil {
            do {
                let value = try found.value(as: T.self, name: name, in: self)
                reportReadValue(
                    of: T.self, name: name, outcome: .cached, to: instrumentation, resolvedBy: resolver(),
                    after: path(), in: context)
                return value
            } catch {
                reportReadValue(
                    of: T.self, name: name, outcome: .failed(error), to: instrumentation, resolvedBy: resolver(),
                    after: path(), in: context)
                throw error
            }
        }
        let key = DependencyKey(T.self, name: name)
        if let resolver = resolver() { recordEdge(from: resolver, to: key) }
        guard let observer = instrumentation.observer else { return try found.value(as: T.self, name: name, in: self) }
        let start = DispatchTime.now().uptimeNanoseconds
        do {
            let value = try found.value(as: T.self, name: name, in: self)
            notify(observer, of: key, resolvers: path(), outcome: .created, since: start, in: context)
            return value
        } catch {
            notify(observer, of: key, resolvers: path(), outcome: .failed(error), since: start, in: context)
            throw error
        }
    }

    /// Tells `instrumentation` how a resolve of `type` under `name` ended that read a ready
    /// value from the observed table (`resolver`: the key whose factory asked, if any;
    /// `resolvers`: the resolves that led here): records the edge and tells the observer. Not
    /// timed: nothing runs or waits there, and two clock reads would cost more than the read
    /// itself (33 ns each on a Linux VM; one tick of Apple silicon's clock is 41.67 ns). For
    /// both faces: the actor face's resolves say what led to them, a thread's its context.
    @inline(__always)
    func reportReadValue(
        of type: any Any.Type,
        name: String?,
        outcome: ResolutionEvent.Outcome,
        to instrumentation: Instrumentation,
        resolvedBy resolver: DependencyKey?,
        after resolvers: @autoclosure () -> [DependencyKey],
        in context: ResolutionContext
    ) {
        let key = DependencyKey(type: type, name: name)
        if let resolver { recordEdge(from: resolver, to: key) }
        guard instrumentation.observer != nil else { return }
        let event = ResolutionEvent(key: key, resolvers: resolvers(), outcome: outcome)
        context.isNotifyingObserver = true
        defer { context.isNotifyingObserver = false }
        instrumentation.tell(event)  // through its holder: the hook is not retained for the call
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
        _ observer: Observer, of key: DependencyKey, resolvers: [DependencyKey], outcome: ResolutionEvent.Outcome,
        since start: UInt64, in context: ResolutionContext = .current
    ) {
        let elapsed = DispatchTime.now().uptimeNanoseconds &- start
        let event = ResolutionEvent(key: key, resolvers: resolvers, outcome: outcome, durationNanoseconds: elapsed)
        // The observer runs on this thread, whose flag keeps its own resolves quiet.
        context.isNotifyingObserver = true
        defer { context.isNotifyingObserver = false }
        observer(event)
    }

    /// Tells the observer, if any, that a sealed injector refused to change `key`.
    func reportRefusal(of key: DependencyKey) {
        guard let observer = registry.withLock({ $0.diagnostics.instrumentation?.observer }) else { return }
        observer(ResolutionEvent(key: key, resolvers: [], outcome: .refused))
    }

    /// Counts a factory run, which tells a cache hit from a miss. (Edges are recorded only by
    /// `instrumentedResolve`: recording them here made a transient with three dependencies
    /// 1.5 times slower for a graph nobody had asked for.)
    func noteFactoryRun(of registration: Registration, in context: ResolutionContext) {
        context.factoryRuns &+= 1
    }

    /// Records, for ``graph()``, that `resolver`'s factory asked for `dependency`.
    func recordEdge(from resolver: DependencyKey, to dependency: DependencyKey) {
        let edge = DependencyGraph.Edge(from: resolver, to: dependency)
        registry.withLock { _ = $0.diagnostics.edges.insert(edge) }
    }
}
