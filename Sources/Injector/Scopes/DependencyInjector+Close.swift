extension DependencyInjector {
    /// Ends this injector's life: tears down every value it keeps, in reverse creation order,
    /// outside any lock, and keeps nothing from then on.
    ///
    /// ```swift
    /// let request = app.openScope()
    /// defer { try? request.close() }  // the request's transaction, then its logger
    ///
    /// app.register(Pool.self, scope: .singleton) { _ in try Pool.open() }
    ///     .teardown { $0.close() }
    /// try app.close()  // at shutdown: the pool is closed
    /// ```
    ///
    /// What it tears down is what it created and keeps: the singletons of its own registrations,
    /// the scoped values of an opened scope, a `.own` child's copies of its ancestors'
    /// singletons. Values it shares from an ancestor are the ancestor's, and stay. Each
    /// teardown runs once; one that throws does not stop the others.
    ///
    /// A closed injector builds nothing: every later resolve that would create a value for it
    /// to keep (a singleton, a scoped value, a `.own` copy, an argument-cached value) throws
    /// ``InjectionError/closed(_:path:)`` before any factory runs, so a request that has ended
    /// begins no transaction, and a teardown that resolves its own key gets `closed`. So does a
    /// teardown that resolves another value this injector kept (taken out as the close began):
    /// capture what a teardown needs when its value is made.
    /// Transients and registered instances still resolve. Resolves in flight when it begins:
    /// a value they had already received stays theirs (and is torn down with the rest); a value
    /// a factory finishes creating afterwards is not kept but torn down at once, and that
    /// resolve throws `closed`.
    ///
    /// An asynchronous teardown (one registered on ``AsyncDependencyInjector`` that awaits, or
    /// one that runs on the main actor, when this is not the main actor: on it, such a
    /// teardown runs in place) cannot be awaited here: from the first one met, latest first,
    /// the rest run in order in a task after `close()` returns. Their failures are recorded on
    /// the running test (printed outside one) and thrown by the actor face's `close()`, which
    /// awaits them: close through the actor face to await them. While teardowns of values let
    /// go earlier still run in a task, this close's teardowns all run after them, in order, in
    /// a task of their own: a value let go before its pool is closed before it. A second
    /// `close()` while one runs finds nothing left and returns at once; the actor face's waits
    /// for the running one.
    ///
    /// - Throws: ``TeardownError`` with every teardown that threw, here or earlier, on a
    ///   replacement, an unregistration or a reset.
    public func close() throws(TeardownError) {
        if let (all, _) = closing() { throw TeardownError(failures: all) }
    }

    /// What `close()` does: every failure, those noted earlier (on a replacement, an
    /// unregistration or a reset) first, and the failures of the teardowns it ran itself (the
    /// others were recorded on the test as they happened); `nil` when none failed (most
    /// closes): no array made, nor released, for none.
    private func closing() -> (all: [TeardownError.Failure], ran: [TeardownError.Failure])? {
        // Not marked running: a task its teardown starts may close the injector on the actor
        // face, and the teardown may block until it has; the actor face's close does not wait.
        let ran: [TeardownError.Failure]?
        if var taken = closeKeeping() {
            // Moved out, so that each value is released in its turn (see `PendingTeardown`).
            ran = tearDown(taken.teardowns.take(), kept: taken.kept.take(), after: taken.tasks)
        } else {
            ran = nil
        }
        guard ready.mayHaveNotedFailures else { return ran.map { ($0, $0) } }
        let noted = takeTeardownFailures()
        guard !noted.isEmpty else { return ran.map { ($0, $0) } }
        guard let ran else { return (noted, []) }
        return (noted + ran, ran)
    }

    /// Runs the teardowns a sync `close()` took out (`closeKeeping()`), latest first (the
    /// asynchronous ones and all after them in a task, after `tasks`); returns their failures,
    /// `nil` for none.
    private func tearDown(
        _ teardowns: consuming [PendingTeardown]?, kept: consuming KeptValues.Dropped?,
        after tasks: [UInt64: Task<Void, Never>]?
    ) -> [TeardownError.Failure]? {
        let failures: [TeardownError.Failure]
        let deferred: [PendingTeardown]
        if let tasks {
            // Earlier async teardowns still run (of later values: a transaction let go before
            // its pool): everything waits for them, in order, in the task.
            runLater(Self.releases(teardowns.take(), kept.take()), after: Array(tasks.values))
            return nil
        } else if teardowns != nil {
            (failures, deferred) = PendingTeardown.runSynchronous(
                Self.releases(teardowns.take(), kept.take()), of: self)
        } else {
            // All a request's scope commonly keeps: run from the slots, no record made for each.
            guard let ran = kept?.runTeardowns(of: self) else { return nil }
            (failures, deferred) = ran
        }
        // An asynchronous teardown (the actor face's) in a sync close: in a task, as on a reset,
        // with the values not yet torn down (moved there), each released in its turn.
        if !deferred.isEmpty { runLater(consume deferred, after: []) }
        return failures.isEmpty ? nil : failures
    }

    /// What `closeKeeping()` takes out (see there).
    struct TakenAtClose {
        /// The teardowns of its registry's values and of its orphans, and of the values kept
        /// per argument tuple; `nil` for none (a request's scope commonly has none of these).
        /// Each part `nil` when empty: no empty array or dictionary released by the close.
        var teardowns: [PendingTeardown]?
        /// The values it keeps for its ancestors' registrations; `nil` for none.
        var kept: KeptValues.Dropped?
        /// The tasks running earlier teardowns, by number; `nil` for none.
        var tasks: [UInt64: Task<Void, Never>]?
    }

    /// Marks this injector closed and takes out what it keeps: the teardowns of its registry's
    /// values, the values it keeps for its ancestors' registrations (a test scope's copies of
    /// singletons, an opened scope's scoped values), and the tasks running earlier teardowns;
    /// `nil` when it keeps none of these (an empty scope's close: nothing made, nor released).
    /// The values are released after the locks.
    func closeKeeping() -> TakenAtClose? {
        // The dropped entries leave the lock whole: released there, a value without a teardown
        // would run its `deinit` under the lock. What it keeps for others is behind the same lock.
        // Each part `nil` when empty: an empty scope's close releases nothing.
        let (dropped, taken, kept) = registry.updateReturning { registry in
            registry.isClosed = true
            registry.ready.noteClosed()  // a scope opened under it from now on is closed from the start
            return (
                registry.isEmpty ? nil : registry.dropValues { $0.isKept }, registry.takeAtClose(),
                registry.kept.close()
            )
        }
        guard dropped?.isEmpty == false || taken != nil || kept != nil else { return nil }
        var teardowns = taken?.orphans.isEmpty == false ? taken?.orphans : nil
        // The values kept per argument tuple (`register(_:caching:teardown:…)`) too, released here.
        // Added only when there are some: adding even an empty array makes a new buffer (an
        // opened scope commonly has none of these, only its kept values).
        if let kept, kept.hasTuples { teardowns = (teardowns ?? []) + kept.tupleTeardowns }
        if let dropped {
            // A value without a teardown is released in its turn too, held until then: released
            // with `dropped`, a value that owns a child would set off the child's teardowns (on
            // its release) before those of values made after it.
            for entry in dropped {
                guard let release = entry.release else { continue }
                if teardowns == nil { teardowns = [release] } else { teardowns?.append(release) }
            }
        }
        return TakenAtClose(
            teardowns: teardowns?.isEmpty == false ? teardowns : nil, kept: keepsValuesForOthers ? kept : nil,
            tasks: taken?.tasks.isEmpty == false ? taken?.tasks : nil)
    }

    /// Keeps `teardown`, of a value made for a registration replaced or removed while its
    /// factory ran (which nobody keeps), for `close()`; runs it now if `close()` has begun.
    func keepOrphan(_ teardown: PendingTeardown) {
        let isClosed = registry.withLock { registry in
            if !registry.isClosed { registry.orphanTeardowns.append(teardown) }
            return registry.isClosed
        }
        if isClosed { tearDown([teardown]) }
    }

    /// Keeps `failures`, noted already (recorded on the test then), for the next `close()`.
    func keep(teardownFailures failures: [TeardownError.Failure]) {
        guard !failures.isEmpty else { return }
        registry.withLock { registry in
            registry.teardownFailures += failures
            registry.ready.noteFailuresNoted()
        }
    }

    /// The teardown failures noted outside `close()`, taken out. No lock taken while none was
    /// ever noted (most injectors): one noted meanwhile by another thread is as one noted after
    /// this call, which the next `close()` takes.
    func takeTeardownFailures() -> [TeardownError.Failure] {
        guard ready.mayHaveNotedFailures else { return [] }
        return registry.withLock { $0.takeTeardownFailures() }
    }

    /// Tears down values this injector let go outside `close()` (replaced, unregistered,
    /// reset, a released child's): outside any lock, latest first; synchronous teardowns now,
    /// asynchronous ones later (see `handOver(_:)`). A failure is kept for `close()` and
    /// recorded on the running test.
    func tearDown(_ teardowns: consuming [PendingTeardown]) {
        guard !teardowns.isEmpty else { return }
        // Moved into the run, so that each value is released in its turn (see `PendingTeardown`).
        var records = consume teardowns
        // User code, run perhaps inside a task's resolve that awaits other threads' creations (a
        // value made after a close, one a bound lets go): its own resolves wait as threads do.
        var (failures, deferred) = ResolutionContext.withCurrent { context in
            context.runningUserCode { PendingTeardown.runSynchronous(exchange(&records, with: []), of: self) }
        }
        note(failures)
        handOver(exchange(&deferred, with: []))
    }

    /// Runs `teardowns`, the rest of a run of this injector's from the first to await, in the
    /// run of its teardowns that this thread is in, if any, which set them off (a child it
    /// released, whose `deinit` cannot await, or a reset in one of its synchronous teardowns):
    /// there they run next, in their turn, and that run's rest after them. Else in a task,
    /// which `close()` awaits.
    private func handOver(_ teardowns: consuming [PendingTeardown]) {
        var teardowns = teardowns
        guard !teardowns.isEmpty, !joinsRun(&teardowns) else { return }
        runLater(teardowns, after: [])
    }

    /// Whether `records` (emptied then) joined a run of this injector's teardowns on this
    /// thread: the running one, or one that another injector's run interrupted (see
    /// `ResolutionContext.takeIn(_:of:)`).
    private func joinsRun(_ records: inout [PendingTeardown]) -> Bool {
        ResolutionContext.withCurrent { $0.takeIn(&records, of: self) }
    }

    /// `teardowns` and what a close does with each of `kept`'s values, moved into one list: no
    /// other holder keeps a value past its turn.
    static func releases(
        _ teardowns: consuming [PendingTeardown]?, _ kept: consuming KeptValues.Dropped?
    ) -> [PendingTeardown] {
        var releases = teardowns.take() ?? []
        if let values = kept.take()?.releases { releases += values }
        return releases
    }

    /// Runs `teardowns` in a task (after `tasks`), which `close()` awaits.
    private func runLater(_ teardowns: consuming [PendingTeardown], after tasks: [Task<Void, Never>]) {
        guard !teardowns.isEmpty || !tasks.isEmpty else { return }
        // Handed to the task in a box it empties, so that its run holds the only reference to
        // each value, released in its turn (a closure's capture would hold them all to its end).
        let records = Locked(consume teardowns)
        // Started under the lock, so that its removal of itself, which takes the lock, comes after.
        registry.withLock { registry in
            let number = registry.teardownTasksStarted
            registry.teardownTasksStarted += 1
            registry.teardownTasks[number] = Task {
                for task in tasks { await task.value }
                // A close awaits this task: a teardown here that closes the injector must not wait for it.
                let failures = await TeardownRun.$current.withValue(
                    TeardownRun(of: nil, teardownTask: (ObjectIdentifier(self), number))
                ) {
                    await PendingTeardown.runAll(records.withLock { exchange(&$0, with: []) }, of: self)
                }
                note(failures)
                // Outside a test, a closed injector's are printed: it is not closed again.
                let isUnseen = TestIssueRecorder.currentOrRunningTest == nil && self.registry.withLock(\.isClosed)
                if !failures.isEmpty, isUnseen { Self.reportFailedTeardowns(TeardownError(failures: failures)) }
                _ = self.registry.withLock { $0.teardownTasks.removeValue(forKey: number) }
            }
        }
    }

    /// Keeps `failures` for the next `close()`, and records them on the running test.
    func note(_ failures: [TeardownError.Failure]) {
        guard !failures.isEmpty else { return }
        keep(teardownFailures: failures)
        for failure in failures {
            TestIssueRecorder.currentOrRunningTest?.record(
                TeardownError(failures: [failure]).description, at: failure.site)
        }
    }

    /// The error for a resolve whose factory made `value` for this injector after its `close()`
    /// began: the value is torn down at once (nothing keeps it). Apart, off the stack of a chain.
    @inline(never)
    func refusalAfterClose(of value: Any, producedBy registration: Registration, path: [DependencyKey])
        -> InjectionError
    {
        tearDownUnkept(value, madeBy: registration)
        return .closed(registration.key, path: path.last == registration.key ? path : path + [registration.key])
    }

    /// Tears down `value`, which `registration`'s factory made to be kept but which nothing
    /// keeps: the injector was closed meanwhile, or a decorator or an `initCompleted` hook failed
    /// after the factory (a pool it opened is closed, not leaked: principle 11). A failure is
    /// kept for `close()`, as a reset's is. Not a value whose wrappers failed: half-built, its
    /// teardown could read them.
    @inline(never)
    func tearDownUnkept(_ value: Any, madeBy registration: Registration) {
        if let teardown = PendingTeardown(of: value, producedBy: latestVersion(of: registration)) {
            tearDown([teardown])
        }
    }

    /// The version of `registration` stored now where a resolve through this injector finds
    /// its key (a `.teardown` attached while its factory ran, say), or `registration` itself
    /// when another registration replaced it: what closes a value it made that nobody keeps.
    func latestVersion(of registration: Registration) -> Registration {
        guard case .factory(let stored, _)? = lookup(registration.key)?.entry, stored.isModification(of: registration)
        else { return registration }
        return stored
    }

    /// Runs `teardowns`, what an opened scope under this injector kept when it was released
    /// without `close()`, as its `close()` would have (asynchronous teardowns in this
    /// injector's task, failures kept for this injector's `close()`), and reports the
    /// forgotten close at the `openScope` call (`openedAt`, `nil` for the scopes the library
    /// opens itself): recorded on the running test, printed otherwise.
    func tearDown(releasedScopeKeeping teardowns: consuming [PendingTeardown], openedAt: DeclarationSite?) {
        guard !teardowns.isEmpty else { return }
        // Reported for the values with a teardown (the others are only released, in their turn),
        // by key: the report holds none of them past its turn.
        let tornDown = PendingTeardown.latestFirst(teardowns).filter(\.tearsDown).map(\.key)
        if let openedAt, !tornDown.isEmpty {
            let keys = tornDown.map { "\($0)" }.joined(separator: ", ")
            let message =
                "Injector: a scope opened at \(openedAt.fileID):\(openedAt.line) was released without close(), "
                + "keeping \(tornDown.count) value\(tornDown.count == 1 ? "" : "s") to tear down (\(keys)); "
                + "they were torn down as it was released. To fix: close it on every path, or run the work "
                + "in withScope { … }, which does."
            if let recorder = TestIssueRecorder.currentOrRunningTest {
                recorder.record(message, at: openedAt)
            } else {
                print(message)
            }
        }
        // Released in a run of this injector's teardowns on this thread (the running one, or one
        // that another injector's run interrupted), or in this task while a run awaits one of
        // its teardowns (see `TeardownRun`): its records join that run, in their turn
        // among the values left there, not a run of their own before newer values waiting there.
        // Only a release's: what a reset or a replacement in a teardown hands over is awaited by
        // that call itself, through a task.
        var records = consume teardowns
        if joinsRun(&records) || (TeardownRun.mayBeOpen && TeardownRun.takeIn(&records, of: self)) {
            return
        }
        tearDown(consume records)
    }

    /// `tearDown(_:)` for the actor face's creations, which await an asynchronous teardown.
    func tearDownAwaiting(_ teardowns: consuming [PendingTeardown]) async {
        guard !teardowns.isEmpty else { return }
        note(await PendingTeardown.runAll(consume teardowns, of: self))
    }

    /// `tearDownUnkept(_:madeBy:)` for the actor face's runs, which await an asynchronous teardown.
    func tearDownUnkept(_ value: Any, madeBy registration: Registration) async {
        guard let teardown = PendingTeardown(of: value, producedBy: latestVersion(of: registration)) else { return }
        note(await PendingTeardown.runAll([teardown], of: self))
    }
}

extension AsyncDependencyInjector {
    /// Ends this injector's life: tears down every value it keeps, in reverse creation order,
    /// awaiting asynchronous teardowns (`try await request.close()`); the rules are
    /// ``DependencyInjector/close()``'s.
    ///
    /// It first awaits the teardowns still running for values let go earlier (replaced,
    /// unregistered, reset). A `close()` on another task while one runs returns once the
    /// running one's teardowns have ended (not a sync face's `close()`, which it does not wait
    /// for: a task a sync teardown starts may be this close, and the teardown may block on it).
    /// Called in a teardown, or a task one starts, it does not wait for a running close: that
    /// close may be waiting, one way or another, for the teardown (two closes that close each
    /// other in their teardowns). When every teardown of a scope is synchronous, its close
    /// runs them in place, as the sync face's does, and awaits none: a task one of them starts
    /// waits for that close to end, which no teardown can then hold up.
    ///
    /// - Throws: ``TeardownError`` with every teardown that threw, here or earlier.
    public nonisolated func close() async throws(TeardownError) {
        let (all, _) = await closing()
        if !all.isEmpty { throw TeardownError(failures: all) }
    }

    /// What `close()` does: every failure, in the order the teardowns ran (those noted earlier,
    /// the teardowns of values let go before, awaited here, among them), and the failures of
    /// the teardowns it ran itself (the others were recorded on the test as they happened).
    private nonisolated func closing() async -> (all: [TeardownError.Failure], ran: [TeardownError.Failure]) {
        let inside = TeardownRun.mark
        var owns = core.beginClose()
        // Another close of this face running already: its teardowns end before this one
        // returns. Not from inside a teardown, which that close may be waiting for.
        if !owns, inside == nil {
            repeat { await core.closeEnded() } while !core.beginClose()
            owns = true
        }
        defer { if owns { core.endClose() } }
        return await tearDownKept(inside: inside)
    }

    /// What `closing()` runs: the teardowns of everything this injector keeps. `inside`: the
    /// teardowns running in this task already, if any (`TeardownRun.mark`).
    ///
    /// The teardowns it awaits run marked (a `TeardownRun` of no injector), and so do the tasks
    /// they start; the synchronous teardowns of a scope's values run in place, as the sync
    /// face's close runs them, and the rest runs no user code: neither binds anything, which
    /// costs more than the rest of a request's close.
    private nonisolated func tearDownKept(
        inside: TeardownRun?
    ) async -> (all: [TeardownError.Failure], ran: [TeardownError.Failure]) {
        var all: [TeardownError.Failure] = []
        var ran: [TeardownError.Failure] = []
        // Not the teardown task this close runs in (a teardown that closes its injector).
        let running = inside?.teardownTask(of: core)
        // Twice: a teardown of the first round may let go of more (a replacement, a value
        // made in flight), which the second takes.
        for round in 0..<2 {
            var teardowns: [PendingTeardown]
            var kept: KeptValues.Dropped?
            let tasks: [UInt64: Task<Void, Never>]
            if let taken = core.closeKeeping() {
                (teardowns, kept, tasks) = (taken.teardowns ?? [], taken.kept, taken.tasks ?? .init())
            } else {
                (teardowns, kept, tasks) = ([], nil, .init())
            }
            // A close in a teardown of this injector's that let go of a child: the child's
            // records wait in the run awaiting that teardown (see `TeardownRun`).
            if TeardownRun.mayBeOpen { teardowns += TeardownRun.takeWaiting(of: core) }
            for (number, task) in tasks where number != running { await task.value }
            let noted = core.takeTeardownFailures()
            // Appended only when there are some: appending even an empty array to an empty one
            // makes a new buffer.
            if !noted.isEmpty { all += noted }
            let dropsNothing = teardowns.isEmpty && kept?.isEmpty ?? true
            if !dropsNothing {
                var failures: [TeardownError.Failure] = []
                let inPlace =
                    (kept?.tearsDownInPlace ?? true)
                    && teardowns.allSatisfy { $0.teardown?.runsInPlace ?? true }
                if inPlace {
                    // Every teardown synchronous (a request's scope commonly): run in place and
                    // unbound, as the sync face's close runs them, from the slots when they are
                    // all it keeps (taken out, so that they are moved, not copied). None is
                    // awaited, so none can wait for a task that another starts (which finds no
                    // close to skip). Left, to await: what a release set off (a released child's
                    // asynchronous teardowns), and the values after it.
                    if teardowns.isEmpty, var kept = kept.take() {
                        (failures, teardowns) = kept.runTeardowns(of: core) ?? ([], [])
                    } else {
                        (failures, teardowns) = PendingTeardown.runSynchronous(
                            DependencyInjector.releases(exchange(&teardowns, with: []), kept.take()), of: core)
                    }
                }
                if !inPlace || !teardowns.isEmpty {
                    let awaited = await TeardownRun.$current.withValue(
                        TeardownRun(of: nil, teardownTask: inside?.teardownTask)
                    ) {
                        // Moved into the run, so that each value is released in its turn.
                        guard teardowns.isEmpty, var kept = kept.take() else {
                            return await PendingTeardown.runAll(
                                DependencyInjector.releases(exchange(&teardowns, with: []), kept.take()), of: core)
                        }
                        guard var ran = kept.runTeardowns(of: core) else { return [] }
                        guard !ran.deferred.isEmpty else { return ran.failures }
                        // Moved into the run: held here too, each would outlive its turn.
                        return ran.failures
                            + (await PendingTeardown.runAll(exchange(&ran.deferred, with: []), of: core))
                    }
                    if !awaited.isEmpty { failures += awaited }
                }
                if !failures.isEmpty {
                    all += failures
                    ran += failures
                }
            }
            // Nothing torn down, released or awaited in the first round (an empty scope's close):
            // no user code ran, which could have let go of more.
            if round == 0, dropsNothing, tasks.isEmpty { break }
        }
        return (all, ran)
    }
}

extension DependencyInjector {
    /// Closes a scope whose API cannot throw a `TeardownError` at its end: a test scope
    /// (`withOverrides`, the testing trait, `InjectorTestCase`) or `verify()`'s scratch. Its own
    /// singletons and scoped values are torn down; a teardown that throws is recorded on the
    /// running test (or printed, outside one). Failures noted earlier were recorded on the
    /// running test when they happened (once: not again here); outside a test, they are printed
    /// with the rest.
    package func closeReportingFailures() {
        guard let (all, ran) = closing() else { return }
        Self.reportFailedTeardowns(ran, all: all)
    }

    /// Reports the failures of a close whose API cannot throw them: those of the teardowns it
    /// `ran`; the others of `all`, noted before it, were recorded on the running test when
    /// they happened, and are reported here only outside a test.
    static func reportFailedTeardowns(_ ran: [TeardownError.Failure], all: [TeardownError.Failure]) {
        let unreported = TestIssueRecorder.currentOrRunningTest == nil ? all : ran
        if !unreported.isEmpty { reportFailedTeardowns(TeardownError(failures: unreported)) }
    }

    /// Reports `error` to the running test, each failure at its registration's line, or
    /// prints it outside one.
    static func reportFailedTeardowns(_ error: TeardownError) {
        guard let recorder = TestIssueRecorder.currentOrRunningTest else {
            print(error.description)
            return
        }
        for failure in error.failures {
            recorder.record(TeardownError(failures: [failure]).description, at: failure.site)
        }
    }
}

extension DependencyInjector {
    /// Marks a close of the actor face as running; `false` when one runs already, which the
    /// caller awaits (`closeEnded()`) before it asks again. A server's shutdown asked twice at
    /// once: the second `close()` must not return while the first still tears down.
    func beginClose() -> Bool {
        registry.withLock { registry in
            guard registry.closesWaiting == nil else { return false }
            registry.closesWaiting = []
            return true
        }
    }

    /// Returns once the running close has ended (at once if none runs).
    func closeEnded() async {
        await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
            let waits = registry.withLock { registry in
                registry.closesWaiting?.append(waiter)
                return registry.closesWaiting != nil
            }
            if !waits { waiter.resume() }
        }
    }

    /// Ends the running close, and wakes the closes that wait for it.
    func endClose() {
        for waiter in registry.withLock({ exchange(&$0.closesWaiting, with: nil) }) ?? [] { waiter.resume() }
    }
}

extension DependencyInjector {
    /// Waits for the asynchronous teardowns running for values this injector let go outside
    /// `close()` (replaced, unregistered, reset).
    func teardownsFinished() async {
        let tasks = registry.withLock { $0.teardownTasks }
        let running = TeardownRun.mark?.teardownTask(of: self)  // not the one this runs in
        for (number, task) in tasks where number != running { await task.value }
    }
}

extension AsyncDependencyInjector {
    /// `DependencyInjector.teardownsFinished()` of its core.
    func teardownsFinished() async {
        await core.teardownsFinished()
    }

    /// `DependencyInjector.closeReportingFailures()` for the actor face, awaiting its teardowns.
    package nonisolated func closeReportingFailures() async {
        let (all, ran) = await closing()
        DependencyInjector.reportFailedTeardowns(ran, all: all)
    }

    /// `close()` where the caller's task may be cancelled (a scope's body that ends a cancelled
    /// request): then from a task of its own, which the cancellation does not reach, so that a
    /// teardown that checks for it (a transaction's commit) still runs. Task-locals carry over.
    nonisolated func closeUncancelled() async throws(TeardownError) {
        try await Self.uncancelled { () async -> Result<Void, TeardownError> in
            do throws(TeardownError) {
                try await self.close()
                return .success(())
            } catch {
                return .failure(error)
            }
        }.get()
    }

    /// `closeReportingFailures()` as `closeUncancelled()` closes.
    nonisolated func closeReportingFailuresUncancelled() async {
        await Self.uncancelled { await self.closeReportingFailures() }
    }

    /// `body`, from a task of its own if this one is cancelled (see `closeUncancelled()`).
    private static func uncancelled<T: Sendable>(_ body: @escaping @Sendable () async -> T) async -> T {
        guard Task.isCancelled else { return await body() }
        return await Task(operation: body).value
    }
}
