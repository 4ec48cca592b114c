/// One run of a singleton's (or weak instance's, scoped value's or `.graph` value's) async
/// factory, shared by every resolve that asks for the value meanwhile. A singleton's run has a task of its own: a
/// caller whose task is cancelled stops waiting, and the run goes on for the rest. A scoped
/// value's runs in the task of the resolve that started it, which claims its place in the
/// opened scope's `KeptValues` (`AsyncDependencyInjector.scopedRequest`); what its waiters
/// await is one of these, made by the first of them. A `.graph` value's runs in the task that
/// claimed it in its resolve (`AsyncDependencyInjector.graphRequest`), awaited by the
/// resolve's other tasks.
final class AsyncSingletonCreation: Sendable {
    /// What a run ends with. Not a `Result`: its error, a large enum of several payloads, made
    /// each copy of one (kept, handed to the waiters, read back) go through its value witnesses;
    /// boxed, an outcome copies as a value or a reference.
    enum Outcome: Sendable {
        case success(any Sendable)
        indirect case failure(InjectionError)

        /// The value, or the error thrown.
        func get() throws(InjectionError) -> any Sendable {
            switch self {
            case .success(let value): value
            case .failure(let error): throw error
            }
        }
    }
    /// A creation's name where it may be freed before its name is (`AsyncWaitGraph`, the
    /// frames of a task that its factory started): unlike an `ObjectIdentifier`, never reused.
    typealias Number = UInt64
    /// Resumed with `true` once the run has ended, `false` when the waiting task is cancelled.
    private typealias Waiter = CheckedContinuation<Bool, Never>

    let registration: Registration
    let number: Number
    /// Whether the run has a task of its own (a singleton's), which nobody cancels: a
    /// `CancellationError` it ends with is its factory's own, and every waiter gets it.
    private let hasTaskOfItsOwn: Bool
    private let state = Locked(State())

    private struct State {
        var outcome: Outcome?
        var waiters: [UInt64: Waiter] = [:]
        var nextWaiter: UInt64 = 0
    }

    /// A run of `registration`'s factory, numbered in `CreationOrder` unless it has a number,
    /// in a task of its own or in the task of the resolve that claimed it.
    init(of registration: Registration, number: Number = CreationOrder.next(), hasTaskOfItsOwn: Bool = false) {
        self.registration = registration
        self.number = number
        self.hasTaskOfItsOwn = hasTaskOfItsOwn
    }

    /// The creations running now, process-wide like `SingletonCreation.shared`, by keeper and
    /// registration, whose identities hold while an entry is here: the creation keeps its
    /// registration, and the task that removes the entry keeps both.
    private static let runs = Locked<[SingletonCreation.Key: AsyncSingletonCreation]>([:])

    /// The creation of `registration`'s value for `keeper` running now, if any.
    static func running(_ registration: Registration, keptBy keeper: DependencyInjector) -> AsyncSingletonCreation? {
        runs.withLock { $0[SingletonCreation.Key(registration, keptBy: keeper)] }
    }

    /// What a resolve of a kept or shared value does (see `request(…)`).
    enum Request {
        /// The value, ready; `nil` when the registration is stale.
        case ready(Any?)
        /// Waits for `creation`'s value (`value(waitingFrom:)`), which another resolve started.
        case wait(AsyncSingletonCreation)
        /// This resolve started `creation` (in a task of its own): waits for its value.
        case started(AsyncSingletonCreation)
        /// Runs the factory in this task, which claimed the place (see `scopedRequest`).
        case create(Number, in: LockedKeptValues)
        /// A thread holds the place, for a moment (it cannot run an async factory): ask again.
        case askAgain
        /// One of the rarer requests, which the actor face handles apart (see `Apart`).
        case apart(Apart)
    }

    /// The rarer requests: a `.graph` value's and a main-actor registration's.
    enum Apart {
        /// Runs the factory in this task, which claimed the `.graph` value's creation in the
        /// resolve it is part of (see `graphRequest`).
        case share(AsyncSingletonCreation, in: AsyncResolutionContext.Resolve)
        /// Waits for a `.graph` value's creation, which another task of the resolve runs
        /// (`sharedValue(waitingFrom:)`).
        case waitShared(AsyncSingletonCreation)
        /// A synchronous factory or completion that runs only on the main actor (the sync face's
        /// `mainActor` registrations), asked off it: run the registration there.
        case onMainActor
        /// Another thread (a synchronous factory's run) creates the value: await the end of its
        /// creation, then ask again (see `ResolutionContext.handsBackWaits(atDepth:)`).
        case awaitThread(AsyncSingletonCreation)
    }

    /// How a resolve gets the value `registration` (held by `holder`) produced for `keeper`: the
    /// one kept, or the one a creation produces, started now by `face` (the keeper's) unless
    /// one is running. Kept as the sync face keeps it, so both read it. Not `async`: only the
    /// wait is (and this is not inlined into it), so that a chain of creations does not keep
    /// this function's frame at each level while it waits.
    @inline(never)
    static func request(
        of registration: Registration,
        heldBy holder: DependencyInjector,
        keptBy keeper: DependencyInjector,
        builtBy face: AsyncDependencyInjector,
        frames: AsyncResolutionContext.Frames
    ) throws(InjectionError) -> Request {
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
            if let running = runs[key] { return .join(running) }
            let creation = AsyncSingletonCreation(of: registration, hasTaskOfItsOwn: true)
            runs[key] = creation
            return .start(creation)
        }
        switch step {
        case .cached(.ready(let value)):
            return .ready(value)
        case .cached(.stale), .cached(.create):  // `cached` never says `.create`
            return .ready(nil)
        case .cached(.closed):
            // Closed before this creation began: nothing is built for it (principle 14).
            throw .closed(registration.key, path: frames.keys + [registration.key])
        case .join(let creation):
            return .wait(creation)
        case .start(let creation):
            // The task copies this task's task-locals, so the creation's path continues the
            // requester's (errors show the whole chain, and a cycle back into it is found).
            let (inside, run, _) = frames.appending(registration, creation: creation.number)
            let create: @Sendable () async -> Void = {
                let outcome = await face.outcome(ofRunning: registration, frames: inside)
                inside.end(run)
                await creation.conclude(outcome, heldBy: holder, keptBy: keeper, after: frames)
            }
            start(create)
            return .started(creation)
        }
    }

    /// Ends the run with what its factory `produced` for a resolve after `frames`: keeps the
    /// value for `keeper` (held by `holder`), hands the outcome to the waiting resolves, then
    /// tears down what the keeping let go. Apart from the run, so that the creation's task
    /// keeps none of this while the factory runs.
    private func conclude(
        _ produced: Outcome,
        heldBy holder: DependencyInjector,
        keptBy keeper: DependencyInjector,
        after frames: AsyncResolutionContext.Frames
    ) async {
        var outcome = produced
        var keeping = SingletonCreation.Keeping()
        if case .success(let value) = outcome {
            keeping = SingletonCreation.keep(value, producedBy: registration, heldBy: holder, keptBy: keeper)
            if keeping.isClosed {
                // Made after the close began: nobody keeps it. Torn down before its
                // resolves hear `closed`, as on the sync face.
                await keeper.tearDownUnkept(value, madeBy: registration)
                outcome = .failure(.closed(registration.key, path: frames.keys + [registration.key]))
            }
        }
        let key = SingletonCreation.Key(registration, keptBy: keeper)
        Self.runs.update { runs in runs[key] === self ? runs.removeValue(forKey: key) : nil }
        finish(outcome)
        // After the creation ends, so that no resolve waiting for it waits for user code.
        if !keeping.letGo.isEmpty { await keeper.tearDownAwaiting(keeping.letGo) }
    }

    /// How many creations may run nested on one thread's stack (see `start`): each level takes
    /// a few KB of it (up to 10 KB unoptimised under the thread sanitizer), so 8 stay far
    /// below the smallest common stack, 512 KB.
    private static var immediateCreationsAllowed: Int { 8 }

    /// Starts `create`, a creation's task, on this thread, where it runs until it first
    /// suspends: a factory that does not suspend has finished when the requester waits, which
    /// then takes no thread hop. Still a task of its own, so the requester's cancellation does
    /// not reach the factory. A creation started inside another's factory nests on this stack,
    /// so past `immediateCreationsAllowed` of them (a deep chain of singletons) the task starts
    /// as any other, on the executor.
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
        // A loop of one, so that the optimiser inlines `Task.immediate` here (it favours a call
        // in a loop), where its `executorPreference` is the constant `nil`. Called out of line,
        // it hands the runtime an executor record even for `nil`, and every hop of the
        // creation's task then takes the task's status lock.
        for _ in 0..<1 { Task.immediate(operation: create) }
    }

    /// Waits for the run's value as a resolve in the current task, with `frames` in progress.
    /// Throws the run's error; `circularDependency` when the run waits, through other runs,
    /// for this task; `factoryFailed` with a `CancellationError` when this task is cancelled.
    ///
    /// The outcome is read under the lock, not passed through the continuation: a resume that
    /// races the waiter's suspension is handed over inside the concurrency runtime, where the
    /// thread sanitizer sees no synchronisation, and it reported the value's creation as a
    /// race with its use (seen once in a full `--sanitize=thread` run). The lock is an edge it sees.
    func value(waitingFrom frames: AsyncResolutionContext.Frames) async throws(InjectionError) -> any Sendable {
        try await value(admitted: try admit(waitingFrom: frames), waitingFrom: frames)
    }

    /// `value(waitingFrom:)` once `admit` let the wait in as `admitted`.
    private func value(
        admitted: (UInt64?, AsyncWaitGraph.Edge?),
        waitingFrom frames: AsyncResolutionContext.Frames
    ) async throws(InjectionError) -> any Sendable {
        let (id, edge) = admitted
        var ended = true
        if let id {
            ended = await withTaskCancellationHandler {
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
            if let edge { AsyncWaitGraph.shared.remove(edge) }
        }
        guard ended, let outcome = state.withLock({ $0.outcome }) else {
            throw .factoryFailed(
                registration.key, path: frames.keys + [registration.key], underlying: CancellationError())
        }
        return try outcome.get()
    }

    /// `value(waitingFrom:)`, or `nil` when the run failed because its task was cancelled and
    /// this one was not: a cancellation is only ever the cancelled task's own, so the waiter
    /// asks again, as a thread does when the creation it waited for fails. A run in a task of
    /// its own is never cancelled: its `CancellationError` is its factory's, the waiter's too.
    func valueUnlessCreatorCancelled(waitingFrom frames: AsyncResolutionContext.Frames) async throws(InjectionError)
        -> (any Sendable)?
    {
        do {
            return try await value(waitingFrom: frames)
        } catch {
            if error.isCancellation && !hasTaskOfItsOwn && !Task.isCancelled { return nil }
            throw error
        }
    }

    /// What a resolve that waits for a `.graph` value's run gets.
    enum SharedWait {
        case value(any Sendable)
        /// The run's task was cancelled, not this one: ask again.
        case askAgain
        /// Waiting would close a cycle of waits, or the run failed with a cycle: make the value
        /// in this task, unshared. The run may wait only for a task its factory started and
        /// left, and its cycle may be that task's path; a cycle on this task's path is found as
        /// it makes the value.
        case makeUnshared
    }

    /// `valueUnlessCreatorCancelled(waitingFrom:)` for a `.graph` value's run (which has no task
    /// of its own), telling apart a wait that would close a cycle (see `SharedWait`).
    func sharedValue(waitingFrom frames: AsyncResolutionContext.Frames) async throws(InjectionError) -> SharedWait {
        let admitted: (UInt64?, AsyncWaitGraph.Edge?)
        do {
            admitted = try admit(waitingFrom: frames)
        } catch {
            return .makeUnshared
        }
        do {
            return .value(try await value(admitted: admitted, waitingFrom: frames))
        } catch {
            if error.isCancellation && !Task.isCancelled { return .askAgain }
            // A cycle on the run's path (a task its factory started, asking for what needs the
            // value) need not be on this one's: this task makes the value, and finds its own.
            if case .circularDependency = error { return .makeUnshared }
            throw error
        }
    }

    /// Before a wait for the run: the waiter's number, and the wait recorded in the graph; no
    /// number when the run has ended already (a factory that did not suspend, started on this
    /// thread: no wait, so no cycle to look for). Throws `circularDependency` when the wait would
    /// close a cycle. Neither `async` nor inlined, so that none of this stays in the frame of
    /// the waiting task.
    @inline(never)
    private func admit(waitingFrom frames: AsyncResolutionContext.Frames) throws(InjectionError) -> (
        UInt64?, AsyncWaitGraph.Edge?
    ) {
        let id = state.withLock { state -> UInt64? in
            guard state.outcome == nil else { return nil }
            defer { state.nextWaiter += 1 }
            return state.nextWaiter
        }
        guard let id else { return (nil, nil) }
        switch AsyncWaitGraph.shared.admit(frames, toWaitFor: self) {
        case .cycle(let path): throw .circularDependency(path: path)
        case .admitted(let edge): return (id, edge)
        }
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
}
