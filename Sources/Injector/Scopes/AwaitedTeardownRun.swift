/// A run of an injector's teardowns that awaits (`PendingTeardown.runAll`), bound to its task
/// while it runs: what a release sets off for the injector while one of its teardowns awaits
/// (a child the teardown lets go of, whose values have teardowns of their own) joins the run,
/// in its turn, instead of a task of its own that the close may await after older values.
/// A thread's synchronous runs take such records in through `ResolutionContext` instead; this
/// is for code that runs in the task between the run's awaits, on whatever thread it resumes.
/// A run of the same injector's teardowns that begins meanwhile in the task and can await
/// them (a teardown that closes its injector, or resets a scope, on the actor face) takes them
/// over (`takeWaiting(of:)`), as a thread's nested run shares the thread's. A synchronous run
/// does not (the sync face's close in such a teardown): it could not await them.
final class AwaitedTeardownRun: Sendable {
    /// The run bound to this task, if any, innermost first (see `outer`).
    @TaskLocal static var current: AwaitedTeardownRun?

    /// How many runs are open in the process: while none is, a run that begins reads no
    /// task-local for one (a request's close).
    private static let open = AtomicCount()

    /// Whose teardowns run: the injector a record must be for to join.
    private let injector: ObjectIdentifier
    /// The task that runs it (`CurrentTask.address`): a task started in one of its teardowns,
    /// which inherits the binding, may add to it, but not take it over.
    private let task: UInt
    /// The run this task was running when this one began (another injector's, or a nested one).
    private let outer: AwaitedTeardownRun?
    /// The records taken in since the run last looked; `nil` once it has ended, when a record
    /// can join it no more (a task the teardown started, say, that outlived the run).
    private let takenIn = Locked<[PendingTeardown]?>([])

    /// A run of `injector`'s teardowns, inside whatever run this task runs; open until `end()`.
    init(of injector: DependencyInjector) {
        self.injector = ObjectIdentifier(injector)
        task = CurrentTask.address
        outer = Self.current
        Self.open.increment()
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
    private static func runs(of injector: DependencyInjector) -> some Sequence<AwaitedTeardownRun> {
        let wanted = ObjectIdentifier(injector)
        return sequence(state: current) { run in
            defer { run = run?.outer }
            return run
        }.lazy.filter { $0.injector == wanted }
    }

    /// Adds `records` (emptied then) unless the run has ended.
    private func append(_ records: inout [PendingTeardown]) -> Bool {
        takenIn.withLock { taken in
            guard taken != nil else { return false }
            taken?.append(contentsOf: exchange(&records, with: []))
            return true
        }
    }

    /// What joined the run since the last call; `nil` when nothing did.
    func take() -> [PendingTeardown]? {
        takenIn.withLock { taken in
            guard taken?.isEmpty == false else { return nil }
            return exchange(&taken, with: [])
        }
    }

    /// Ends the run: what joined it since the last `take()`, which the caller runs; later
    /// records go where they would outside it.
    func end() -> [PendingTeardown] {
        defer { Self.open.decrement() }
        return takenIn.withLock { exchange(&$0, with: nil) } ?? []
    }
}
