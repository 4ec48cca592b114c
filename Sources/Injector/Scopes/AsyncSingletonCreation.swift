/// One run of a singleton's (or weak instance's, or scoped value's) async factory, shared by
/// every resolve that asks for the value meanwhile. A singleton's run has a task of its own: a
/// caller whose task is cancelled stops waiting, and the run goes on for the rest. A scoped
/// value's runs in the task of the resolve that started it (see `value(of:…)`).
final class AsyncSingletonCreation: Sendable {
    typealias Outcome = Result<any Sendable, InjectionError>
    /// A creation's name where it may be freed before its name is (`AsyncWaitGraph`, the
    /// frames of a task that its factory started): unlike an `ObjectIdentifier`, never reused.
    typealias Number = UInt64
    /// Resumed with `true` once the run has ended, `false` when the waiting task is cancelled.
    private typealias Waiter = CheckedContinuation<Bool, Never>

    let registration: Registration
    let number: Number
    private let state = Locked(State())

    private struct State {
        var outcome: Outcome?
        var waiters: [UInt64: Waiter] = [:]
        var nextWaiter: UInt64 = 0
    }

    private init(registration: Registration, number: Number) {
        self.registration = registration
        self.number = number
    }

    /// The creations running now, process-wide like `SingletonCreation.shared`.
    private static let runs = Locked(Runs())

    private struct Runs {
        /// By keeper and registration, whose identities hold while an entry is here: the
        /// creation keeps its registration, and the task that removes the entry keeps both.
        var byKey: [SingletonCreation.Key: AsyncSingletonCreation] = [:]
        /// How many creations have started, which numbers the next one.
        var started: Number = 0
    }

    /// The creation of `registration`'s value for `keeper` running now, if any.
    static func running(_ registration: Registration, keptBy keeper: DependencyInjector) -> AsyncSingletonCreation? {
        runs.withLock { $0.byKey[SingletonCreation.Key(registration, keptBy: keeper)] }
    }

    /// The value `registration` (held by `holder`) produced for `keeper`: the one kept, or the
    /// one a creation produces, started now by `face` (the keeper's) unless one is running;
    /// `nil` when `registration` is stale. Kept as the sync face keeps it, so both read it.
    static func value(
        of registration: Registration,
        heldBy holder: DependencyInjector,
        keptBy keeper: DependencyInjector,
        builtBy face: AsyncDependencyInjector,
        frames: AsyncResolutionContext.Frames
    ) async throws(InjectionError) -> Any? {
        enum Step {
            case cached(SingletonCreation.Start)
            case join(AsyncSingletonCreation)
            case start(AsyncSingletonCreation)
        }
        let key = SingletonCreation.Key(registration, keptBy: keeper)
        // Lock order: this lock, then an injector's (one at a time), as in `SingletonCreation`.
        let step = runs.withLock { runs -> Step in
            if let cached = SingletonCreation.cached(registration, heldBy: holder, keptBy: keeper) {
                return .cached(cached)
            }
            if let running = runs.byKey[key] { return .join(running) }
            let creation = AsyncSingletonCreation(registration: registration, number: runs.started)
            runs.started += 1
            runs.byKey[key] = creation
            return .start(creation)
        }
        switch step {
        case .cached(.ready(let value)):
            return value
        case .cached(.stale), .cached(.create):  // `cached` never says `.create`
            return nil
        case .cached(.closed):
            // Closed before this creation began: nothing is built for it (principle 14).
            throw .closed(registration.key, path: frames.keys + [registration.key])
        case .join(let creation):
            return try await creation.value(waitingFrom: frames)
        case .start(let creation):
            // The task copies this task's task-locals, so the creation's path continues the
            // requester's (errors show the whole chain, and a cycle back into it is found).
            let (inside, run) = frames.appending(registration, creation: creation)
            let create: @Sendable () async -> Void = {
                var outcome = await face.run(registration, frames: inside)
                inside.end(run)
                var keeping = SingletonCreation.Keeping()
                if case .success(let value) = outcome {
                    keeping = SingletonCreation.keep(value, producedBy: registration, heldBy: holder, keptBy: keeper)
                    if keeping.isClosed {
                        // Made after the close began: nobody keeps it. Torn down before its
                        // resolves hear `closed`, as on the sync face.
                        await keeper.tearDownAwaiting(
                            [PendingTeardown(of: value, producedBy: registration)].compactMap { $0 })
                        outcome = .failure(.closed(registration.key, path: frames.keys + [registration.key]))
                    }
                }
                runs.update { runs in runs.byKey[key] === creation ? runs.byKey.removeValue(forKey: key) : nil }
                creation.finish(outcome)
                // After the creation ends, so that no resolve waiting for it waits for user code.
                await keeper.tearDownAwaiting(keeping.letGo)
            }
            // A scoped value is the request's own: made in the requesting task (which the
            // request's cancellation may stop, as it stops the request), with no task of its
            // own; resolves that ask meanwhile wait for it here, as for a singleton. Only a
            // value that outlives the request is made in a task shielded from its cancellation.
            if registration.isScoped {
                await create()
            } else {
                start(create)
            }
            return try await creation.value(waitingFrom: frames)
        }
    }

    /// How many creations may run nested on one thread's stack (see `start`): each level takes
    /// a few KB of it (up to 10 KB unoptimised under the thread sanitizer), so 8 stay far
    /// below the smallest common stack, 512 KB.
    private static var immediateCreationsAllowed: Int { 8 }

    /// Starts `create`, a creation's task, on this thread, where it runs until it first
    /// suspends: a factory that does not suspend has finished when the requester waits, which
    /// then takes no thread hop (about 20 µs on a busy machine). Still a task of its own, so
    /// the requester's cancellation does not reach the factory. A creation started inside
    /// another's factory nests on this stack, so past `immediateCreationsAllowed` of them (a
    /// deep chain of singletons) the task starts as any other, on the executor.
    private static func start(_ create: @escaping @Sendable () async -> Void) {
        let context = ResolutionContext.current
        guard context.immediateCreations < immediateCreationsAllowed,
            #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *)
        else {
            Task(operation: create)
            return
        }
        context.immediateCreations += 1
        defer { context.immediateCreations -= 1 }
        Task.immediate(operation: create)
    }

    /// Waits for the run's value as a resolve in the current task, with `frames` in progress.
    /// Throws the run's error; `circularDependency` when the run waits, through other runs,
    /// for this task; `factoryFailed` with a `CancellationError` when this task is cancelled.
    func value(waitingFrom frames: AsyncResolutionContext.Frames) async throws(InjectionError) -> any Sendable {
        // Ended already (a factory that did not suspend, started on this thread): no wait, so
        // no cycle to look for, no continuation, no cancellation handler.
        if let outcome = state.withLock({ $0.outcome }) { return try outcome.get() }
        let key = registration.key
        let edge: AsyncWaitGraph.Edge?
        switch AsyncWaitGraph.shared.admit(frames, toWaitFor: self) {
        case .cycle(let path):
            throw .circularDependency(path: path)
        case .admitted(let admitted):
            edge = admitted
        }
        defer { if let edge { AsyncWaitGraph.shared.remove(edge) } }

        guard let outcome = await outcome() else {
            throw .factoryFailed(key, path: frames.keys + [key], underlying: CancellationError())
        }
        return try outcome.get()
    }

    /// Ends the run: hands `outcome` to every waiter, and to every later one.
    func finish(_ outcome: Outcome) {
        let waiters = state.withLock { state in
            state.outcome = outcome
            defer { state.waiters = [:] }
            return state.waiters
        }
        for waiter in waiters.values { waiter.resume(returning: true) }
    }

    /// How many resolves are waiting for the run now (for tests).
    var waiterCount: Int { state.withLock { $0.waiters.count } }

    /// The run's outcome, or `nil` if the current task is cancelled before it ends.
    ///
    /// The outcome is read under the lock, not passed through the continuation: a resume that
    /// races the waiter's suspension is handed over inside the concurrency runtime, where the
    /// thread sanitizer sees no synchronisation, and it reported the value's creation as a
    /// race with its use (seen once in a full `--sanitize=thread` run). The lock is an edge it sees.
    private func outcome() async -> Outcome? {
        let id = state.withLock { state in
            defer { state.nextWaiter += 1 }
            return state.nextWaiter
        }
        let ended = await withTaskCancellationHandler {
            await withCheckedContinuation { (waiter: Waiter) in
                // Cancellation sets the flag before it runs the handler below, so whichever of
                // the two takes the lock second sees the other's work: no waiter is left behind.
                let immediate: Bool? = state.withLock { state in
                    if state.outcome != nil { return true }
                    if Task.isCancelled { return false }
                    state.waiters[id] = waiter
                    return nil
                }
                if let immediate { waiter.resume(returning: immediate) }
            }
        } onCancel: {
            let waiter = state.withLock { $0.waiters.removeValue(forKey: id) }
            waiter?.resume(returning: false)
        }
        return ended ? state.withLock { $0.outcome } : nil
    }
}
