/// Runs a singleton's (or weak instance's) factory once when several threads ask for it first.
///
/// The first thread to miss the cache creates; the others sleep until it has cached its value
/// or failed (then one of them tries). The lock is never held while a factory runs. Before a
/// thread sleeps, it follows the waits from the creator; if they lead back to itself (A → B →
/// A from two threads at once), it throws `circularDependency`. A task's resolve (the actor
/// face's) never sleeps here: it is handed the creation's end to await (see
/// `ResolutionContext.handsBackWaits(atDepth:)`). Process-wide.
final class SingletonCreation: Sendable {
    static let shared = SingletonCreation()

    /// A cache being filled: the injector that keeps the value, and the registration. Their
    /// identities are not reused while a key is in use: the creator and every waiter are
    /// inside a call given both, until `finish` (or, for a waiter, until it wakes).
    struct Key: Hashable {
        let owner: ObjectIdentifier
        let registration: ObjectIdentifier

        init(owner: ObjectIdentifier, registration: ObjectIdentifier) {
            self.owner = owner
            self.registration = registration
        }

        /// The cache of `registration`'s value that `keeper` keeps: one for every version of
        /// the registration (`Registration.lineage`), so that a resolve that finds it modified
        /// in place waits for the creation the unmodified one began.
        init(_ registration: Registration, keptBy keeper: DependencyInjector) {
            self.init(owner: ObjectIdentifier(keeper), registration: registration.lineage)
        }

        /// One word hashed, not two: a key is hashed at every creation's start and end, where
        /// `Hasher` was a tenth of an actor-face request. Two live objects' addresses differ,
        /// and the product spreads the owner's over the word.
        func hash(into hasher: inout Hasher) {
            hasher.combine(UInt(bitPattern: owner) &* 0x9E37_79B9_7F4A_7C15 ^ UInt(bitPattern: registration))
        }
    }

    /// The creations running now, by key, and their ends that tasks await.
    private struct Creations {
        /// The thread creating each value (for the cycle check).
        var creators: [Key: ResolutionContext] = [:]
        /// What the tasks waiting for a creation await, made by the first of them (most
        /// creations have none); `finish` ends it. It carries no value: its waiters ask again,
        /// as the threads that wait here do.
        var awaited: [Key: AsyncSingletonCreation] = [:]

        /// The end of `key`'s creation that `registration`'s resolve in a task awaits, made
        /// now if it is the first to wait.
        mutating func end(of key: Key, for registration: Registration) -> AsyncSingletonCreation {
            if let awaited = awaited[key] { return awaited }
            let end = AsyncSingletonCreation(of: registration)
            awaited[key] = end
            return end
        }
    }

    private let creations = Locked(Creations())

    private enum Step {
        case ready(Any)
        case stale
        case closed
        case create
        case cycle([DependencyKey])
        /// Another thread creates the value: the task's resolve awaits its end (see `Creations`).
        case await(AsyncSingletonCreation)
    }

    /// What `start` does for the cache `key`, filled with `dependency`'s value, once no other
    /// thread is creating the value; `cached` says what the cache holds (called under this
    /// lock). `registration` makes the value, if it is a registration's (not a property's):
    /// a task's resolve of it awaits another thread's creation instead of sleeping. Not
    /// inlined, for the stack (see `DependencyInjector.resolve(_:name:)`).
    @inline(never)
    private func step(
        for key: Key,
        of dependency: DependencyKey,
        madeBy registration: Registration?,
        context: ResolutionContext,
        cached: () -> Start?
    ) -> Step {
        creations.withLockWaiting { creations -> Step? in
            context.waitingFor = nil
            // Lock order: this lock, then an injector's (one at a time), never the reverse.
            switch cached() {
            case .ready(let value)?: return .ready(value)
            case .stale?: return .stale
            case .closed?: return .closed
            case .create?, nil: break  // `cached` never says `.create`
            }
            guard creations.creators[key] != nil else {
                creations.creators[key] = context
                return .create
            }
            if let cycle = Self.cycle(from: context, waitingFor: key, of: dependency, creators: creations.creators) {
                return .cycle(cycle)
            }
            if let registration, context.handsBackWaits() {
                return .await(creations.end(of: key, for: registration))
            }
            context.waitingFor = key
            context.waitingPath = context.path + [dependency]
            return nil
        }
    }

    /// The value for `keeper`'s cache, created now if need be; `nil` if `registration` is stale.
    func value(
        of registration: Registration,
        heldBy holder: DependencyInjector,
        keptBy keeper: DependencyInjector,
        context: ResolutionContext
    ) throws(InjectionError) -> Any? {
        switch try start(of: registration, heldBy: holder, keptBy: keeper, context: context) {
        case .ready(let value):
            return value
        case .stale, .closed:  // `start` throws `closed`
            return nil
        case .create(let key):
            var letGo: [PendingTeardown] = []
            defer { finish(key, tearingDown: letGo, for: keeper) }
            let value = try keeper.run(registration, in: context)
            letGo = try keep(value, producedBy: registration, heldBy: holder, keptBy: keeper)
            return value
        }
    }

    /// Where the value of `registration` (held by `holder`) for `keeper` stands, once no other
    /// thread is creating it; throws `circularDependency` when waiting would never end. On
    /// `.create`, the caller runs the factory, keeps its value and calls `finish`, as
    /// `value(of:…)` does (the resolve of an injector's own singleton does it in place).
    func start(
        of registration: Registration,
        heldBy holder: DependencyInjector,
        keptBy keeper: DependencyInjector,
        context: ResolutionContext
    ) throws(InjectionError) -> Start {
        let key = Key(registration, keptBy: keeper)
        return try start(key, of: registration.key, madeBy: registration, context: context) {
            Self.cached(registration, heldBy: holder, keptBy: keeper)
        }
    }

    /// `start(of:heldBy:keptBy:context:)` for any value made once and kept under `key` (a
    /// `@LazyInject` property's, say): what `cached` returns (called under this lock; `nil`
    /// while nothing is kept), once no other thread is making it. A thread waiting here
    /// takes part in the cycle check with the singletons' creators.
    func start(
        _ key: Key,
        of dependency: DependencyKey,
        madeBy registration: Registration? = nil,
        context: ResolutionContext,
        cached: () -> Start?
    ) throws(InjectionError) -> Start {
        switch step(for: key, of: dependency, madeBy: registration, context: context, cached: cached) {
        case .ready(let value): return .ready(value)
        case .stale: return .stale
        // Closed before this creation began: nothing is built for it (principle 14).
        case .closed: throw Self.closed(dependency, context: context)
        case .cycle(let path): throw .circularDependency(path: path)
        case .create: return .create(key)
        case .await(let end):
            // Nothing to hand out yet: the task's resolve awaits the end, then asks again.
            context.handedBack = end
            return .stale
        }
    }

    /// Waits while another thread creates the value of `dependency` under `key`, a creation
    /// that is not registered here (an opened scope's claim, see `KeptValues`): `creator`
    /// (called under this lock) says which thread creates it, marking the creation as awaited
    /// so that its end calls `finish(key)`, or `nil` once it has ended. The creator is
    /// registered as `key`'s, for the cycle check. Throws `circularDependency` when waiting
    /// would never end. With `handingBack`, the registration whose value a task's resolve asks
    /// for (see `ResolutionContext.handsBackWaits(atDepth:)`), it does not sleep: it hands the
    /// creation's end back in `context.handedBack`, for the task to await before it asks again.
    func wait(
        for key: Key,
        of dependency: DependencyKey,
        context: ResolutionContext,
        handingBack registration: Registration? = nil,
        creator: () -> ResolutionContext?
    ) throws(InjectionError) {
        let cycle = creations.withLockWaiting { creations -> [DependencyKey]?? in
            context.waitingFor = nil
            guard let running = creator() else { return .some(nil) }
            creations.creators[key] = running
            if let cycle = Self.cycle(from: context, waitingFor: key, of: dependency, creators: creations.creators) {
                return .some(cycle)
            }
            if let registration {
                context.handedBack = creations.end(of: key, for: registration)
                return .some(nil)
            }
            context.waitingFor = key
            context.waitingPath = context.path + [dependency]
            return nil
        }
        if let cycle { throw .circularDependency(path: cycle) }
    }

    /// The error for a creation of `dependency` refused because its keeper is closed; apart,
    /// off the stack of every level of a chain of singletons.
    @inline(never)
    private static func closed(_ dependency: DependencyKey, context: ResolutionContext) -> InjectionError {
        .closed(dependency, path: context.path + [dependency])
    }

    /// What `start` (or `cached`, which never says `.create`) found.
    enum Start {
        /// The value, created earlier or by the thread this one waited for.
        case ready(Any)
        /// The registration is no longer the one stored under its key: look the key up again.
        /// Said too, by `start`, to a task's resolve handed a creation's end to await
        /// (`ResolutionContext.handedBack`), which it reads first.
        case stale
        /// The keeper is closed and keeps nothing: the resolve throws `closed` before any
        /// factory runs (`start` throws it; only `cached` says it).
        case closed
        /// This thread creates the value, then calls `finish(key)`, whatever happens.
        case create(Key)
    }

    /// Ends the creation `start` handed to this thread, waking the threads and tasks waiting
    /// for it.
    func finish(_ key: Key) {
        let awaited = creations.withLock { creations -> AsyncSingletonCreation? in
            creations.creators[key] = nil
            return creations.awaited.isEmpty ? nil : creations.awaited.removeValue(forKey: key)
        }
        creations.signalAll()
        // No value: the tasks ask again, and find it kept (or make it, after a failure).
        awaited?.finish(.success(()))
    }

    /// What the tasks waiting for the thread's creation under `key` await, if any (for tests).
    func awaitedEnd(of key: Key) -> AsyncSingletonCreation? {
        creations.withLock { $0.awaited[key] }
    }

    /// What `keeper` keeps for `registration` (held by `holder`), for both faces; `nil` when
    /// not created yet. Called under a creation lock, so only a value leaves `holder`'s lock,
    /// never an entry that might be the last reference to a replaced value.
    static func cached(
        _ registration: Registration,
        heldBy holder: DependencyInjector,
        keptBy keeper: DependencyInjector
    ) -> Start? {
        let held = holder.registry.withLock { registry -> Start? in
            guard case .factory(let current, let cache) = registry[registration.key], registration.isStored(as: current)
            else { return .stale }
            // The holder's cache is the answer only when the holder is the keeper.
            guard holder === keeper else { return nil }
            if let value = cache.value { return .ready(value) }
            return registry.isClosed ? .closed : nil
        }
        guard holder !== keeper, held == nil else { return held }
        return keeper.kept(registration)
    }

    /// Keeps `value` in `keeper`'s cache (`holder`'s registry, or the keeper's own copies);
    /// returns the teardowns of what keeping let go (a stale copy replaced), for
    /// `finish(_:tearingDown:for:)`. Throws `closed`, the value torn down, when the keeper is
    /// closed (see `DependencyInjector.close()`). Apart, for the stack: the frame that calls it
    /// holds a chain's level while its factory runs.
    @inline(never)
    func keep(
        _ value: Any,
        producedBy registration: Registration,
        heldBy holder: DependencyInjector,
        keptBy keeper: DependencyInjector
    ) throws(InjectionError) -> [PendingTeardown] {
        let keeping = Self.keep(value, producedBy: registration, heldBy: holder, keptBy: keeper)
        if keeping.isClosed {
            throw keeper.refusalAfterClose(of: value, producedBy: registration, path: ResolutionContext.current.path)
        }
        return keeping.letGo
    }

    /// Ends the creation `key`, then runs `teardowns` (by `keeper`): after the end, so that no
    /// resolve waiting for the value waits for user code.
    @inline(never)
    func finish(_ key: Key, tearingDown teardowns: [PendingTeardown], for keeper: DependencyInjector) {
        finish(key)
        keeper.tearDown(teardowns)
    }

    /// What keeping a value came to: whether the keeper was closed (nothing kept), and the
    /// teardowns of what it let go (a stale copy replaced), to run once the creation ends.
    struct Keeping {
        var isClosed = false
        var letGo: [PendingTeardown] = []
    }

    /// Keeps `value` in `keeper`'s cache: `holder`'s registry, or the keeper's own copies.
    static func keep(
        _ value: Any,
        producedBy registration: Registration,
        heldBy holder: DependencyInjector,
        keptBy keeper: DependencyInjector
    ) -> Keeping {
        guard holder === keeper else { return keeper.keep(value, producedBy: registration, heldBy: holder) }
        // `updateReturning`: a table the value's insertion outgrew is freed after the unlock.
        let (replaced, isClosed) = keeper.registry.updateReturning { registry in
            registry.isClosed ? (nil, true) : (registry.cache(value, producedBy: registration), false)
        }
        withExtendedLifetime(replaced) {}  // released after the unlock
        return Keeping(isClosed: isClosed)
    }

    /// The cycle that waiting for `key` would close, as a path, or `nil` when waiting is safe.
    private static func cycle(
        from waiter: ResolutionContext,
        waitingFor key: Key,
        of dependency: DependencyKey,
        creators: [Key: ResolutionContext]
    ) -> [DependencyKey]? {
        var path = waiter.path + [dependency]
        var reached = dependency
        var creator = creators[key]
        // Each creator appears once in a chain; a longer walk means the chain does not lead back.
        for _ in 0...creators.count {
            guard let current = creator else { return nil }
            if current === waiter { return path }
            guard let next = current.waitingFor else { return nil }
            // The creator's own chain from the key we reached to the key it waits for.
            let theirs = current.waitingPath
            let start = theirs.lastIndex(of: reached).map { $0 + 1 } ?? theirs.startIndex
            path += theirs[start...]
            reached = theirs.last ?? reached
            creator = creators[next]
        }
        return nil
    }
}
