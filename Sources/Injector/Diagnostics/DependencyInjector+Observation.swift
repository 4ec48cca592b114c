import Dispatch

extension DependencyInjector {
    /// Calls `observer` after every resolve made through this injector, with the key, the
    /// outcome (cache hit, created, or the error) and the time it took (0 for a value the
    /// injector held ready: see ``ResolutionEvent/durationNanoseconds``).
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
    /// Waiting for a singleton another resolve creates is a cache hit. A registration a sealed
    /// injector refuses is reported too (``ResolutionEvent/Outcome/refused``).
    ///
    /// Children created after this call inherit the observer; earlier children and ancestors
    /// are not affected. A child can install its own or call ``stopObserving()``. While no
    /// observer is installed (the default), a ready resolve pays one test of a flag for this;
    /// while one is, ready values are still read without a lock, then reported.
    public func observe(_ observer: @escaping @Sendable (ResolutionEvent) -> Void) {
        let instrumentation = Instrumentation(observer: observer)
        registry.update { exchange(&$0.diagnostics.instrumentation, with: instrumentation) }
    }

    /// Removes the observer that ``observe(_:)`` installed on this injector.
    ///
    /// ```swift
    /// injector.stopObserving()
    /// ```
    ///
    /// A resolve that begins after this returns is not reported. One already running on
    /// another thread may still be, after this returns, as with any hook removed while
    /// resolves run.
    public func stopObserving() {
        registry.update { exchange(&$0.diagnostics.instrumentation, with: nil) }
    }

    /// `body`'s result, with `observer` told of every resolve through this injector while it
    /// runs, besides the observer installed, which is put back after (unless replaced meanwhile):
    /// `expectNoResolution` watching a test's scope.
    package func observing<Result>(
        _ observer: @escaping @Sendable (ResolutionEvent) -> Void,
        during body: () throws -> Result
    ) rethrows -> Result {
        // Read and replaced in one locked step: an `observe` meanwhile is not lost.
        let link = registry.updateReturning { registry in
            let link = ObservingLink(previous: registry.diagnostics.instrumentation, observer: observer)
            registry.diagnostics.instrumentation = Instrumentation(observer: link.tell, link: link)
            return link
        }
        defer {
            link.deactivate()
            // The links dropped leave the lock whole: their observers' captures are released after it.
            let dropped = registry.updateReturning { registry in
                var dropped: [Instrumentation] = []
                while let top = registry.diagnostics.instrumentation, let topLink = top.link, !topLink.isActive {
                    dropped.append(top)
                    registry.diagnostics.instrumentation = topLink.previous
                }
                return dropped
            }
            withExtendedLifetime(dropped) {}
        }
        return try body()
    }

    /// The calling thread, as observers see it (events arrive on the resolving thread).
    package static var threadIdentity: ObjectIdentifier {
        ResolutionContext.withCurrent { ObjectIdentifier($0) }
    }

    /// A new child starts with its parent's observer.
    func inheritObserver(from parent: DependencyInjector) {
        // Most parents are not observed: no lock of theirs (the app's) taken by every request.
        guard parent.ready.isInstrumented,
            let inherited = parent.registry.withLock({ $0.diagnostics.instrumentation }),
            inherited.observer != nil
        else { return }
        registry.update { exchange(&$0.diagnostics.instrumentation, with: inherited) }
    }

    /// A resolve while this injector is instrumented, on the locked path: the observation
    /// stage of the one resolve path. A value ready here is read under the lock and reported
    /// untimed (`reportedValue`); anything else is resolved as when unobserved, timed, and
    /// reported with its outcome: created when a factory ran for it, else cached.
    func instrumentedResolve<T>(
        _ key: DependencyKey,
        as type: T.Type,
        ifAbsent: (DependencyKey) throws(InjectionError) -> T
    ) throws(InjectionError) -> T {
        var miss = Miss.absent
        let registry = self.registry.lock()
        if let slot = registry.pointee.readySlot(key, miss: &miss) {
            // Retained here: the hook is told after the unlock, when `stopObserving` may have
            // let go of the registry's and the table's.
            let instrumentation = registry.pointee.diagnostics.instrumentation
            return try reportedValue(of: slot, as: T.self, key: key, to: instrumentation)
        }
        self.registry.unlock()
        func plainResolve() throws(InjectionError) -> T {
            try resolve(key, as: type, after: miss, instrumented: false, ifAbsent: ifAbsent)
        }
        let context = ResolutionContext.current
        guard let observer = instrument(key, resolvedBy: context.resolverOnEitherFace) else {
            return try plainResolve()
        }
        let runsBefore = context.factoryRuns
        let start = DispatchTime.now().uptimeNanoseconds
        // No `Result<T, …>`: its metadata, looked up on every call in this generic code, cost
        // as much as the resolve.
        do {
            let value = try plainResolve()
            let outcome: ResolutionEvent.Outcome = context.factoryRuns != runsBefore ? .created : .cached
            notify(observer, of: key, resolvers: context.pathOnEitherFace, outcome: outcome, since: start, in: context)
            return value
        } catch {
            notify(
                observer, of: key, resolvers: context.pathOnEitherFace, outcome: .failed(error), since: start,
                in: context)
            throw error
        }
    }

    /// Under the registry lock, which it lets go: the value of `slot`, ready here under `key`,
    /// reported to `instrumentation` once the lock is let go. The resolve is this thread's, or
    /// the task's whose `frames` are given (the actor face's).
    func reportedValue<T>(
        of slot: Unmanaged<Registry.ReadySlot>,
        as type: T.Type,
        key: DependencyKey,
        to instrumentation: Instrumentation?,
        frames: AsyncResolutionContext.Frames? = nil
    ) throws(InjectionError) -> T {
        let value: T
        do {
            value = try Registry.ReadySlot.typedValue(of: slot, as: T.self, key: key)
        } catch {
            registry.unlock()
            reportRead(of: key, outcome: .failed(error), to: instrumentation, frames: frames)
            throw error
        }
        registry.unlock()
        reportRead(of: key, outcome: .cached, to: instrumentation, frames: frames)
        return value
    }

    /// Withdraws the announcement in the hazard `record` (a `ProtectedSlot`'s, maybe tagged),
    /// once a value of `type` under `name` has been read from the table it announced; when
    /// that table is observed (the tag), reports the read to the hook the table carries, after
    /// the withdrawal: the observer is user code, which may run long or register into this
    /// injector, and an announcement held meanwhile would keep the table, and what writes took
    /// out of it, from being freed. Apart, so that the inlined read stays small.
    @usableFromInline
    @inline(never)
    func withdraw(_ record: UnsafeMutableRawPointer, afterReading type: any Any.Type, name: String?) {
        guard Hazards.isTagged(record) else { return Hazards.withdraw(record) }
        let instrumentation = PublishedTable.instrumentation(announcedIn: record)
        Hazards.withdraw(record)
        reportRead(of: DependencyKey(type: type, name: name), outcome: .cached, to: instrumentation, frames: nil)
    }

    /// Tells `instrumentation` how a resolve of `key` ended that read a ready value, for a
    /// resolve of this thread (`frames`: `nil`) or of the task whose frames are given (the
    /// actor face's). Not generic, unlike its callers: unspecialised generic code pays for
    /// every value it moves.
    @inline(never)
    func reportRead(
        of key: DependencyKey,
        outcome: ResolutionEvent.Outcome,
        to instrumentation: Instrumentation?,
        frames: AsyncResolutionContext.Frames?
    ) {
        guard let instrumentation else { return }
        ResolutionContext.withCurrent { context in
            if let frames {
                reportRead(
                    of: key, outcome: outcome, to: instrumentation, resolvedBy: frames.innermostKey,
                    after: frames.keys, in: context)
            } else {
                reportRead(
                    of: key, outcome: outcome, to: instrumentation, resolvedBy: context.resolverOnEitherFace,
                    after: context.pathOnEitherFace, in: context)
            }
        }
    }

    /// Records the edge from `resolver` (the key whose factory asked, if any) to `key`, and
    /// tells the observer which `resolvers` led here, unless the observer itself resolved it
    /// (see `notify`). Not timed: nothing runs or waits there, and two clock reads would cost
    /// more than the read itself (and one tick of Apple silicon's clock is longer).
    @inline(__always)
    private func reportRead(
        of key: DependencyKey,
        outcome: ResolutionEvent.Outcome,
        to instrumentation: Instrumentation,
        resolvedBy resolver: @autoclosure () -> DependencyKey?,
        after resolvers: @autoclosure () -> [DependencyKey],
        in context: ResolutionContext
    ) {
        guard !context.isNotifyingObserver else { return }
        if let resolver = resolver() { recordEdge(from: resolver, to: key) }
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
    /// An optional or a provider handle is recorded as it is: `graph()` draws it as what it
    /// wraps, or not at all (see `drawnDependency`).
    func recordEdge(from resolver: DependencyKey, to dependency: DependencyKey) {
        let edge = DependencyGraph.Edge(from: resolver, to: dependency)
        registry.withLock { _ = $0.diagnostics.edges.insert(edge) }
    }
}

extension ResolutionContext {
    /// The key whose factory asks, on either face: this thread's innermost run, else, in what
    /// an actor-face factory builds (whose wrappers resolve on this thread), the task's. Only
    /// an observed resolve asks: it records the edge for `graph()`.
    var resolverOnEitherFace: DependencyKey? {
        innermost?.key ?? (AsyncWrapperCapture.isBuilding ? AsyncResolutionContext.frames.innermostKey : nil)
    }

    /// The keys being resolved on either face, outermost first (see `resolverOnEitherFace`).
    var pathOnEitherFace: [DependencyKey] {
        AsyncWrapperCapture.isBuilding ? AsyncResolutionContext.keys + path : path
    }
}
