/// Teardowns this task runs, innermost first (see `outer`), bound while they run and inherited
/// by the tasks their teardowns start. A run that awaits (`PendingTeardown.runAll`), of an
/// injector's teardowns: what a release sets off for the injector while one of its teardowns
/// awaits (a child the teardown lets go of) joins the run, in its turn, instead of a task of
/// its own that the close may await after older values; a thread's synchronous runs take such
/// records in through `ResolutionContext` instead. A run of the same injector's that begins
/// meanwhile in the task and can await them (a teardown that closes its injector, or resets a
/// scope, on the actor face) takes them over (`takeWaiting(of:)`); a synchronous one does not
/// (the sync face's close in such a teardown): it could not await them. A mark, of a close's
/// teardowns or a teardown task's, has no injector and takes nothing in: a `close()` inside it
/// waits for no running close (which may be waiting for it), nor for the task that runs it.
final class TeardownRun: Sendable {
    /// The innermost teardowns this task runs, if any.
    @TaskLocal static var current: TeardownRun?

    /// How many runs are open in the process: while none is, a run that begins reads no
    /// task-local for one (a request's close).
    private static let open = AtomicCount()

    /// Whose teardowns run: the injector a record must be for to join; `nil` for a mark.
    private let injector: ObjectIdentifier?
    /// The task that runs it (`CurrentTask.address`; 0 for a mark, which nothing takes over): a
    /// task started in one of its teardowns, which inherits the binding, may add to it, but not
    /// take it over.
    private let task: UInt
    /// What this task ran when this began (another injector's run, a nested one, a mark).
    private let outer: TeardownRun?
    /// The records taken in since the run last looked; `nil` once the run has ended, when a
    /// record can join it no more (a task its teardown started that outlived it). No lock for
    /// a mark, which takes nothing in: an actor-face close that awaits binds one.
    private let takenIn: Locked<[PendingTeardown]?>?
    /// A mark's: the teardown task that runs it (its injector and number, see `runLater`), if one does.
    let teardownTask: (injector: ObjectIdentifier, number: UInt64)?

    /// A run of `injector`'s teardowns, open until `end()`; with none, a mark (of `teardownTask`'s).
    init(of injector: DependencyInjector?, teardownTask: (injector: ObjectIdentifier, number: UInt64)? = nil) {
        self.injector = injector.map(ObjectIdentifier.init)
        task = injector == nil ? 0 : CurrentTask.address
        outer = Self.current
        takenIn = injector == nil ? nil : Locked([])
        self.teardownTask = teardownTask
        if injector != nil { Self.open.increment() }
    }

    /// The innermost mark bound to this task, if any; one task-local read when none is bound
    /// (a request's close asks).
    @inline(__always)
    static var mark: TeardownRun? {
        guard let run = current else { return nil }
        return sequence(first: run, next: \.outer).first { $0.injector == nil }
    }

    /// The number of the teardown task running this mark, if it is one of `injector`'s.
    func teardownTask(of injector: DependencyInjector) -> UInt64? {
        guard let teardownTask, teardownTask.injector == ObjectIdentifier(injector) else { return nil }
        return teardownTask.number
    }

    /// Whether a run may be open in the process: `takeWaiting(of:)` and `takeIn(_:of:)` only
    /// then (one atomic load, inlined).
    @inline(__always)
    static var mayBeOpen: Bool { !open.isZero }

    /// What waits, for `injector`, in the runs of this task (taken out of them), for a run of
    /// its teardowns that begins now and awaits them in their turn: a nested close of the
    /// injector must not end before the values a teardown of the outer run let go of.
    static func takeWaiting(of injector: DependencyInjector) -> [PendingTeardown] {
        let task = CurrentTask.address
        return runs(of: injector).filter { $0.task == task }.compactMap { $0.take() }.flatMap { $0 }
    }

    /// Whether `records`, released for `injector` (emptied then), joined a run of its
    /// teardowns that this task is in, the innermost first.
    static func takeIn(_ records: inout [PendingTeardown], of injector: DependencyInjector) -> Bool {
        runs(of: injector).contains { $0.append(&records) }
    }

    /// The runs of `injector`'s teardowns bound to this task, the innermost first.
    private static func runs(of injector: DependencyInjector) -> some Sequence<TeardownRun> {
        let wanted = ObjectIdentifier(injector)
        return bound.lazy.filter { $0.injector == wanted }
    }

    /// What this task runs, the innermost first.
    private static var bound: some Sequence<TeardownRun> {
        sequence(state: current) { run in
            defer { run = run?.outer }
            return run
        }
    }

    /// Adds `records` (emptied then) unless the run has ended.
    private func append(_ records: inout [PendingTeardown]) -> Bool {
        takenIn?.withLock { taken in
            guard taken != nil else { return false }
            taken?.append(contentsOf: exchange(&records, with: []))
            return true
        } ?? false
    }

    /// What joined the run since the last call; `nil` when nothing did.
    func take() -> [PendingTeardown]? {
        takenIn?.withLock { taken in
            guard taken?.isEmpty == false else { return nil }
            return exchange(&taken, with: [])
        }
    }

    /// Ends the run: what joined it since the last `take()`, which the caller runs; later
    /// records go where they would outside it.
    func end() -> [PendingTeardown] {
        defer { Self.open.decrement() }
        return takenIn?.withLock { exchange(&$0, with: nil) } ?? []
    }
}
