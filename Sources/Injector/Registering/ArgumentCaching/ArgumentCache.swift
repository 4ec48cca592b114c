/// The values one registration with run-time arguments keeps, by argument tuple, as its
/// ``ArgumentCaching`` says. A value is made once per tuple however many threads or tasks ask
/// at once: the first claims the tuple, as an opened scope's creation claims its place (see
/// `KeptValues`), and makes the value in its own thread or task. A thread that finds it
/// claimed waits in `SingletonCreation`, a task awaits what the first waiting task made (an
/// `AsyncSingletonCreation`); both check the wait for cycles, across threads and across tasks.
///
/// A bound lets go of the least recently used values, but never of one whose creation is still
/// handing it out: between keeping a value and returning it, its creator runs user code (the
/// teardowns of what the bound let go, and the wake-up of the resolves that waited), during
/// which other resolves can use `limit` other tuples. A value let go then would reach its
/// caller torn down. Such a value stays, over the bound, until the next creation after its
/// hand-out. Once handed out, a value is its caller's to use, and the bound may let it go.
final class ArgumentCache: Sendable {
    /// One argument tuple's value, or its creation in progress.
    private final class Entry: @unchecked Sendable {
        // `@unchecked Sendable`: every property is touched only under the cache's lock.
        /// The argument tuple, its key in the cache.
        let arguments: [AnyHashable]
        var value: Any?
        /// The teardown of a value kept strongly, if the registration has one.
        var teardown: PendingTeardown?
        weak var object: AnyObject?
        var creator: ResolutionContext?
        var isAwaited = false
        /// The actor face's creation in progress: its number in the wait graph, and what the
        /// tasks that wait for it await, made by the first of them.
        var task: (number: AsyncSingletonCreation.Number, awaited: AsyncSingletonCreation?)?
        /// The resolves being handed this value by its creation (its creator on the sync face;
        /// every resolve that awaits the creation on the actor face): a bound does not let go of
        /// it meanwhile.
        var handOuts = 0

        init(_ arguments: [AnyHashable]) {
            self.arguments = arguments
        }

        /// The kept value, if it is still alive.
        var kept: Any? { value ?? object }
    }

    private struct State {
        var entries: [[AnyHashable]: Entry] = [:]
        /// Whether the keeper closed: a value made from then on is not kept (see `close()`).
        var isClosed = false
        /// Whether the registration was replaced or removed: a value made from then on goes to
        /// its resolve alone (see `retire()`).
        var isRetired = false
        /// The tuples with a value, least recently used first (a bounded cache's order).
        var recency: [[AnyHashable]] = []
        /// How many entries a weak cache holds when it next forgets the tuples whose values are gone.
        var forgetGoneAt = State.forgetGoneAtFirst
        static let forgetGoneAtFirst = 16
    }

    private let caching: ArgumentCaching
    private let state = Locked(State())
    /// The registration its values are kept for, its key, and what closes each (see
    /// `register(_:caching:teardown:…)`).
    private let registration: Registration
    private var key: DependencyKey { registration.key }
    private let teardown: Registration.Teardown?

    /// A cache of `registration`'s values. Its keeper, which tears down what the cache lets go
    /// and keeps the failures for its `close()`, is handed to each resolve, not held: it holds
    /// the cache, and a weak reference would give it a side table, which makes every retain
    /// and release of the injector take the runtime's slow path.
    init(_ caching: ArgumentCaching, of registration: Registration, teardown: Registration.Teardown?) {
        self.caching = caching
        self.registration = registration
        self.teardown = teardown
    }

    private enum Claimed {
        case ready(Any)
        case claimed(Entry)
        case running(Entry, creator: ResolutionContext)
        case cycle
        /// A task makes it, running an async factory, which this thread could not run either.
        case madeByTask
        /// The keeper closed: nothing more is made (a waiter woken by the close finds this).
        case closed
    }

    /// The value for `arguments`, made by `make` on this thread if no value is kept for them
    /// (the resolve of `dependency`, on the thread of `context`, through `keeper`).
    func value(
        for arguments: [AnyHashable],
        of dependency: DependencyKey,
        context: ResolutionContext,
        keptBy keeper: DependencyInjector,
        make: () throws -> Any
    ) throws -> Any {
        while true {
            switch state.withLock({ claim(arguments, by: context, in: &$0) }) {
            case .ready(let value):
                return value
            case .cycle:
                throw InjectionError.circularDependency(path: context.path + [dependency])
            case .madeByTask:
                throw InjectionError.factoryFailed(
                    dependency, path: context.path + [dependency], underlying: RequiresAwait())
            case .closed:
                throw InjectionError.closed(dependency, path: DependencyInjector.runningPath(endingAt: dependency))
            case .running(let entry, let creator):
                try SingletonCreation.shared.wait(for: key(of: entry), of: dependency, context: context) {
                    state.withLock { _ in
                        guard entry.creator === creator else { return nil }
                        entry.isAwaited = true
                        return creator
                    }
                }
            case .claimed(let entry):
                context.argumentCreations &+= 1
                return try create(entry, for: arguments, keptBy: keeper, make: make)
            }
        }
    }

    private func claim(_ arguments: [AnyHashable], by context: ResolutionContext, in state: inout State) -> Claimed {
        // Closed: `close()` let go of every value, and no factory runs for it any more.
        guard !state.isClosed else { return .closed }
        let entry = state.entries[arguments] ?? Entry(arguments)
        if let value = entry.kept {
            noteUse(of: arguments, in: &state)
            return .ready(value)
        }
        if let creator = entry.creator { return creator === context ? .cycle : .running(entry, creator: creator) }
        if entry.task != nil { return .madeByTask }
        entry.creator = context
        state.entries[arguments] = entry
        return .claimed(entry)
    }

    /// Runs `make` for the tuple this thread claimed, keeps its value, and wakes the threads
    /// that wait for it; what a bounded cache lets go is released after the lock. The value is
    /// handed out until this returns: a bound does not let go of it meanwhile.
    private func create(
        _ entry: Entry,
        for arguments: [AnyHashable],
        keptBy keeper: DependencyInjector,
        make: () throws -> Any
    ) throws -> Any {
        let value: Any
        do {
            value = try make()
        } catch {
            let isAwaited = state.withLock { state in
                entry.creator = nil
                if entry.kept == nil { state.entries[arguments] = nil }
                return entry.isAwaited
            }
            if isAwaited { SingletonCreation.shared.finish(key(of: entry)) }
            throw error
        }
        let (isAwaited, evicted, isClosed, isKept) = state.withLock { state -> (Bool, [Entry], Bool, Bool) in
            entry.creator = nil
            defer { entry.isAwaited = false }
            guard !state.isClosed else {
                state.entries[arguments] = nil
                return (entry.isAwaited, [], true, false)
            }
            keep(value, in: entry, for: arguments, in: &state)  // retired: for the waiters alone
            entry.handOuts += 1
            guard !state.isRetired else { return (entry.isAwaited, [], false, false) }
            return (entry.isAwaited, keepWithin(caching.limit, adding: arguments, in: &state), false, true)
        }
        if isAwaited { SingletonCreation.shared.finish(key(of: entry)) }
        if isClosed { throw closedError(tearingDown: value, keptBy: keeper) }
        tearDown(evicted, keptBy: keeper)  // torn down and released here, after the unlock and the waiters
        forgetGoneValues()
        if !isKept { orphan(value, keptBy: keeper) }
        state.withLock { _ in entry.handOuts -= 1 }
        return value
    }

    /// Notes a bounded cache's use of the value kept for `arguments`: the most recent now.
    private func noteUse(of arguments: [AnyHashable], in state: inout State) {
        guard caching.limit != nil, let index = state.recency.firstIndex(of: arguments) else { return }
        state.recency.append(state.recency.remove(at: index))
    }

    /// Notes `arguments` as the most recently used; returns the entries a bound lets go, least
    /// recently used first, passing over those a creation is still handing out.
    private func keepWithin(_ limit: Int?, adding arguments: [AnyHashable], in state: inout State) -> [Entry] {
        guard let limit else { return [] }
        state.recency.append(arguments)
        var evicted: [Entry] = []
        var index = 0
        while state.recency.count > limit, index < state.recency.count {
            if let entry = state.entries[state.recency[index]], entry.handOuts > 0 {
                index += 1
                continue
            }
            if let entry = state.entries.removeValue(forKey: state.recency.remove(at: index)) { evicted.append(entry) }
        }
        return evicted
    }

    /// Forgets the tuples of a weak cache whose values are gone, nobody making them again, once
    /// the entries have doubled since the last time (amortised: no walk per creation), after a
    /// creation. A cache keyed by request or user IDs met each tuple once, and kept them all,
    /// with their arguments, for good.
    private func forgetGoneValues() {
        guard caching.isWeak else { return }
        // A weak reference read holds its object for a moment: each is released after the
        // unlock, with the entries let go (their arguments are user values), never under it.
        var held: [AnyObject] = []
        let gone = state.withLock { state -> [Entry] in
            guard state.entries.count >= state.forgetGoneAt else { return [] }
            let gone = state.entries.filter { _, entry in
                if let object = entry.object {
                    held.append(object)
                    return false
                }
                return entry.value == nil && entry.creator == nil && entry.task == nil
            }
            for arguments in gone.keys { state.entries[arguments] = nil }
            state.forgetGoneAt = max(State.forgetGoneAtFirst, state.entries.count * 2)
            return Array(gone.values)
        }
        withExtendedLifetime((gone, held)) {}
    }

    /// What the actor face's resolve of a tuple finds.
    private enum TaskClaim<T> {
        case kept(T)
        /// The tuple is this task's to make, as the creation numbered in its entry.
        case create(Entry)
        /// Another task makes it: await this.
        case wait(Entry, AsyncSingletonCreation)
        /// A thread makes it, for a moment (a synchronous factory): ask again.
        case askAgain
        /// Nobody makes it: this task is to, once it has its creation's number.
        case unnumbered
        case closed
    }

    /// `value(for:of:context:make:)` for the actor face: the first resolve of a tuple makes its
    /// value in its own task, with `frames` in progress, as the creation numbered after the
    /// innermost creation those frames run (see `AsyncDependencyInjector.runTransient`); a
    /// resolve that finds it being made awaits it, after the wait graph's check for a cycle
    /// (two tasks whose cached values need each other). A task that waited for a creation whose
    /// task was cancelled asks again. While a resolve is handed a value, a bound does not let go
    /// of it.
    func value<T: Sendable>(
        for arguments: [AnyHashable],
        as type: T.Type,
        after frames: AsyncResolutionContext.Frames,
        keptBy keeper: DependencyInjector,
        make: () async throws -> T
    ) async throws -> T {
        // Taken only when this task is to make the value: a value kept costs no walk of the frames.
        var number: AsyncSingletonCreation.Number?
        while true {
            let claim = state.withLock { state -> TaskClaim<T> in
                // Closed: `close()` let go of every value, and no factory runs for it any more.
                guard !state.isClosed else { return .closed }
                let entry = state.entries[arguments] ?? Entry(arguments)
                if let value = entry.kept as? T {
                    noteUse(of: arguments, in: &state)
                    return .kept(value)
                }
                if entry.creator != nil { return .askAgain }
                if let running = entry.task {
                    let awaited = running.awaited ?? AsyncSingletonCreation(of: registration, number: running.number)
                    entry.task = (running.number, awaited)
                    entry.handOuts += 1
                    return .wait(entry, awaited)
                }
                guard let number else { return .unnumbered }
                entry.handOuts += 1
                entry.task = (number, nil)
                state.entries[arguments] = entry
                return .create(entry)
            }
            switch claim {
            case .kept(let value):
                return value
            case .closed:
                throw InjectionError.closed(key, path: frames.keys)  // the innermost run is this key's
            case .askAgain:
                await Task.yield()
            case .unnumbered:
                number = frames.innermostCreation?.creation ?? CreationOrder.next()
            case .create(let entry):
                defer { state.withLock { _ in entry.handOuts -= 1 } }
                ObservedRequest.noteMade()
                return try await create(entry, for: arguments, after: frames, keptBy: keeper, make: make)
            case .wait(let entry, let awaited):
                defer { state.withLock { _ in entry.handOuts -= 1 } }
                // From the frames outside this run, which are the cached registration's own.
                guard let value = try await awaited.valueUnlessCreatorCancelled(waitingFrom: frames.outer) else {
                    continue
                }
                guard let value = value as? T else { throw UnexpectedValueType(expected: T.self, actual: Any.self) }
                return value
            }
        }
    }

    /// Makes the value of `entry`, which this task claimed, keeps it, and hands the outcome to
    /// the tasks that await it.
    private func create<T: Sendable>(
        _ entry: Entry,
        for arguments: [AnyHashable],
        after frames: AsyncResolutionContext.Frames,
        keptBy keeper: DependencyInjector,
        make: () async throws -> T
    ) async throws -> T {
        let value: T
        do {
            value = try await make()
        } catch {
            let awaited = state.withLock { state in
                defer { entry.task = nil }
                if entry.kept == nil { state.entries[arguments] = nil }
                return entry.task?.awaited
            }
            awaited?.finish(
                .failure(
                    (error as? InjectionError) ?? .factoryFailed(key, path: frames.keys, underlying: error)))
            throw error
        }
        let (awaited, evicted, isClosed, isKept) = state.withLock {
            state -> (AsyncSingletonCreation?, [Entry], Bool, Bool) in
            defer { entry.task = nil }
            guard !state.isClosed else {
                state.entries[arguments] = nil
                return (entry.task?.awaited, [], true, false)
            }
            keep(value, in: entry, for: arguments, in: &state)  // retired: for the waiters alone
            guard !state.isRetired else { return (entry.task?.awaited, [], false, false) }
            return (entry.task?.awaited, keepWithin(caching.limit, adding: arguments, in: &state), false, true)
        }
        if isClosed {
            // Made after the close began: nobody keeps it. Torn down before its resolves hear `closed`.
            if let teardown = pendingTeardown(of: value) { await keeper.tearDownAwaiting([teardown]) }
            let error = InjectionError.closed(key, path: [key])
            awaited?.finish(.failure(error))
            throw error
        }
        awaited?.finish(.success(value))
        if !isKept { orphan(value, keptBy: keeper) }
        forgetGoneValues()
        // Awaited here, after the waiters are woken, as the sync face's creator runs them.
        let teardowns = evicted.compactMap(\.teardown)
        if !teardowns.isEmpty { await keeper.tearDownAwaiting(teardowns) }
        withExtendedLifetime(evicted) {}  // released here, after the unlock and the teardowns
        return value
    }

    /// The error of a value made after the keeper closed, which is not kept but torn down at
    /// once, as a singleton's would be.
    private func closedError(tearingDown value: Any, keptBy keeper: DependencyInjector) -> InjectionError {
        if let teardown = pendingTeardown(of: value) { keeper.tearDown([teardown]) }
        return .closed(key, path: [key])
    }

    /// The teardown of `value`, if the cache would tear it down: a strongly held value's, when
    /// the registration has one; recorded, if it fails in a test, at the registration's line.
    private func pendingTeardown(of value: Any) -> PendingTeardown? {
        guard !caching.isWeak, let teardown else { return nil }  // a weak value is its holders'
        return PendingTeardown(of: value, key: key, teardown: teardown, site: registration.site.declarationSite)
    }

    /// Tears down the values of `entries`, which the cache let go, through its keeper.
    private func tearDown(_ entries: [Entry], keptBy keeper: DependencyInjector) {
        let teardowns = entries.compactMap(\.teardown)
        if !teardowns.isEmpty { keeper.tearDown(teardowns) }
        withExtendedLifetime(entries) {}
    }

    /// Keeps `value` in `entry` as the caching says: strongly, or weakly (a value that is not
    /// a class instance is not kept).
    private func keep(_ value: Any, in entry: Entry, for arguments: [AnyHashable], in state: inout State) {
        if !caching.isWeak {
            entry.value = value
            entry.teardown = pendingTeardown(of: value)
        } else if type(of: value) is AnyObject.Type {
            entry.object = value as AnyObject
        } else {
            state.entries[arguments] = nil
        }
    }

    /// Hands the teardown of `value`, made after the registration was replaced or removed (see
    /// `retire()`), to the keeper's `close()`: the retired cache keeps it only for the resolves
    /// that waited for it, and goes with them, as a singleton made across a re-registration.
    private func orphan(_ value: Any, keptBy keeper: DependencyInjector) {
        if let teardown = pendingTeardown(of: value) { keeper.keepOrphan(teardown) }
    }

    /// Lets go of every kept value, as `removeAll()` does, for good: the registration was
    /// replaced or removed. A creation running now hands its value to its resolves; nothing
    /// keeps it, and the keeper's `close()` tears it down.
    func retire() -> [PendingTeardown] {
        removeAll { $0.isRetired = true }
    }

    /// Closes the cache with its keeper: lets go of every kept value (returning their
    /// teardowns, as `removeAll()`), and keeps none made from now on.
    func close() -> [PendingTeardown] {
        removeAll { $0.isClosed = true }
    }

    /// Lets go of every kept value (a reset of the key, a replacement, `close()`); creations
    /// running go on. Returns the teardowns of the values, for the caller to run, in creation
    /// order; the values are released with them, after the unlock.
    func removeAll() -> [PendingTeardown] {
        removeAll { _ in }
    }

    /// `removeAll()`, with `mark` changing the state in the same locked step: a creation that
    /// ended between a retirement and the letting go would hand its value's teardown both to
    /// the keeper's `close()` and to this caller.
    private func removeAll(marking mark: (inout State) -> Void) -> [PendingTeardown] {
        let dropped = state.withLock { state -> [Entry] in
            mark(&state)
            let kept = state.entries.filter { $0.value.creator == nil && $0.value.task == nil }
            for arguments in kept.keys { state.entries[arguments] = nil }
            state.recency.removeAll()
            return Array(kept.values)
        }
        return dropped.compactMap(\.teardown).sorted { $0.order < $1.order }
    }

    /// Whether a resolve besides its creator waits for the creation of the value for
    /// `arguments` (for tests, which close the keeper then): a thread, or a task whose wait
    /// the wait graph has admitted.
    func hasWaiters(for arguments: [AnyHashable]) -> Bool {
        let (isAwaited, awaited) = state.withLock { state -> (Bool, AsyncSingletonCreation?) in
            guard let entry = state.entries[arguments] else { return (false, nil) }
            return (entry.isAwaited, entry.task?.awaited)
        }
        return isAwaited || (awaited?.waiterCount ?? 0) > 0
    }

    /// The creation key of `entry` in `SingletonCreation`: this cache and the entry.
    private func key(of entry: Entry) -> SingletonCreation.Key {
        SingletonCreation.Key(owner: ObjectIdentifier(self), registration: ObjectIdentifier(entry))
    }
}
