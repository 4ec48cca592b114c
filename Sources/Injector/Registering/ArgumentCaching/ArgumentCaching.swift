/// How a factory that takes run-time arguments keeps the values it makes: one per argument
/// tuple, a session per user ID, a client per tenant
/// (``DependencyInjector/register(_:name:caching:teardown:fileID:line:factory:)``); without
/// one, such a factory keeps nothing.
///
/// ```swift
/// injector.register(TenantClient.self, caching: .strong(limit: 100)) { (r, tenant: TenantID) in
///     try TenantClient(tenant: tenant, http: r.resolve())
/// }
/// ```
///
/// The arguments are hashed before any lock is taken; their `==` runs under the injector's
/// lock, where it finds the value, so it must not resolve from that injector.
public struct ArgumentCaching: Hashable, Sendable {
    /// Whether values are held weakly.
    let isWeak: Bool
    /// How many values are kept at most, the least recently used let go first; `nil`: no bound.
    let limit: Int?

    /// Keeps every value strongly, until the key is reset (``DependencyInjector/reset(_:name:)``).
    public static let strong = ArgumentCaching(isWeak: false, limit: nil)

    /// Keeps at most `limit` values strongly, letting go of the least recently used.
    ///
    /// A value that a resolve is still being handed is not let go: its creator tears down what
    /// the bound let go before returning it, and meanwhile it stays, over the bound, until the
    /// resolves it is handed to have it; then the least recently used others go. Once returned,
    /// a value may be let go (and torn down) while its caller still uses it, when `limit` other
    /// tuples are used since: keep the bound above the number of values in use at once, or hold
    /// them with ``weak``.
    public static func strong(limit: Int) -> ArgumentCaching {
        ArgumentCaching(isWeak: false, limit: max(1, limit))
    }

    /// Keeps each value weakly: shared while something else holds it, made again after. A
    /// value that is not a class instance cannot be held weakly and is made on every resolve.
    /// The tuples whose values are gone are forgotten, with their arguments, at later creations.
    public static let weak = ArgumentCaching(isWeak: true, limit: nil)

    /// The lifetime of the values it keeps, as a captive dependency names it
    /// (``InjectionError/captiveDependency(_:path:holder:holderScope:)``): the named scope
    /// `caching: .strong(limit: 100)`, which outlives opened scopes as every named scope does.
    /// A scope of its own, not ``Scope/singleton``, so that the message names what was written.
    var lifetime: Scope { .named(Self.lifetimePrefix + description) }

    /// What begins the name of an argument cache's ``lifetime``.
    static let lifetimePrefix = "caching: "

    /// The arguments as the key of their value: each must be `Hashable` (the register that
    /// takes them cannot require it, as its uncached form takes any argument).
    static func tuple<First, each Rest>(_ first: First, _ rest: repeat each Rest) throws -> ArgumentTuple {
        var tuple: [AnyHashable] = [try hashable(first)]
        repeat tuple.append(try hashable(each rest))
        return ArgumentTuple(tuple)
    }

    private static func hashable<Argument>(_ argument: Argument) throws -> AnyHashable {
        guard let hashable = argument as? AnyHashable else {
            throw UnhashableArgument(typeName: String(reflecting: type(of: argument)))
        }
        return hashable
    }
}

/// A cached factory's arguments, as the key of their value: hashed once, where the resolve
/// begins, outside any lock (an argument's `hash(into:)` is user code, and the value is looked
/// up under its keeper's lock); only `==` runs there, on a tuple of the same hash.
struct ArgumentTuple: Hashable {
    let arguments: [AnyHashable]
    private let hash: Int

    init(_ arguments: [AnyHashable]) {
        self.arguments = arguments
        hash = arguments.hashValue
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(hash)
    }

    static func == (lhs: ArgumentTuple, rhs: ArgumentTuple) -> Bool {
        lhs.hash == rhs.hash && lhs.arguments == rhs.arguments
    }
}

/// A cached factory's argument that is not `Hashable`: its tuple cannot key a value.
struct UnhashableArgument: ExplainedFailure, CustomStringConvertible {
    /// The argument's type, module-qualified.
    let typeName: String

    var problem: String {
        "an argument's type, \(typeName), is not Hashable, so the argument cache cannot key a value by it"
    }

    var fix: String { "make \(typeName) Hashable, or register without `caching:`" }

    var description: String { "\(problem): \(fix)" }
}

extension ArgumentCaching: CustomStringConvertible {
    /// The caching as written in code: `.strong`, `.strong(limit: 100)` or `.weak`.
    public var description: String {
        if isWeak { return ".weak" }
        return limit.map { ".strong(limit: \($0))" } ?? ".strong"
    }
}

extension Scope {
    /// Whether this is an argument cache's lifetime (see `ArgumentCaching.lifetime`), which a
    /// captive dependency's fix line tells apart from a scope the user can change.
    var isArgumentCaching: Bool {
        guard case .named(let name) = self else { return false }
        return name.hasPrefix(ArgumentCaching.lifetimePrefix)
    }
}

extension DependencyInjector {
    /// The value of `key`'s registration (which takes arguments) for the argument `tuple`, as
    /// a resolve through this injector finds it: kept by the injector that would keep the
    /// registration's singleton (its holder, or a `.own` child such as a test scope, so that
    /// no child's override reaches another's values and tests see none of each other's), in
    /// its store of kept values (`KeptValues`), and made by it (`make` gets it), once however
    /// many threads ask at once: the first claims the tuple's place, as an opened scope's
    /// creation claims its value's; a thread that finds it claimed waits in
    /// `SingletonCreation`, which checks the wait for a cycle.
    func cachedValue(
        of key: DependencyKey,
        teardown: Registration.Teardown?,
        for tuple: ArgumentTuple,
        make: (DependencyInjector) throws -> Any
    ) throws -> Any {
        let context = ResolutionContext.current
        while true {
            guard let (registration, holder, keeper) = cachingKeeper(of: key, running: context.innermost),
                let claim = keeper.claim(
                    tuple, of: registration, heldBy: holder, asking: context, { .thread(context) })
            else {
                // Decorated where it is made, before it is kept (see `Registration.decoratesOwnValues`).
                return try orphaned(decoratedIfAny(make(self), key: key, in: context), of: key, teardown: teardown)
            }
            switch claim.claimed {
            case .ready(let value):
                return value
            case .cycle:
                throw InjectionError.circularDependency(path: context.path + [key])
            case .closed:
                throw InjectionError.closed(key, path: Self.runningPath(endingAt: key))
            case .running(let running):
                // A task's resolve, whose run of the registration is the only one here, awaits
                // the creation's end instead, then asks again (see `handsBackWaits(atDepth:)`).
                try keeper.wait(
                    for: running, of: key, context: context,
                    handingBack: context.handsBackWaits(atDepth: 1) ? registration : nil)
                if context.handedBack != nil { throw AwaitingAThreadsCreation() }
                // Made after its registration was replaced: nobody keeps it, but it is this
                // resolve's, which asked for the registration the creator ran.
                if let value = keeper.registry.withLock({ _ in claim.tuple.isLetGo ? claim.tuple.value : nil }) {
                    return value
                }
            case .claimed:
                context.argumentCreations &+= 1
                return try keeper.create(claim.tuple, of: registration, teardown: teardown) {
                    // Made with the keeper as `current`, as a singleton is: the wrappers of what
                    // the factory builds resolve from the keeper, never from the child that asked.
                    let value = try Self.current === keeper ? make(keeper) : keeper.runAsCurrent(make)
                    return try keeper.decoratedIfAny(value, key: key, in: context)
                }
            }
        }
    }

    /// `key`'s registration, `running` (which takes arguments, and whose factory asks), its
    /// holder, and the injector that keeps its values for a resolve through this one; `nil`
    /// when the walk no longer finds `running` (replaced or removed since its run began): its
    /// value is kept by nobody, and torn down by `close()` (see `orphaned(_:of:teardown:)`).
    func cachingKeeper(of key: DependencyKey, running: Registration?)
        -> (registration: Registration, holder: DependencyInjector, keeper: DependencyInjector)?
    {
        guard case .pending(let registration, let holder, let keeper) = locate(key), registration === running
        else { return nil }
        return (registration, holder, keeper)
    }

    /// What this injector, the keeper of `registration`'s values per tuple, has for `arguments`
    /// (see `KeptValues.claim(_:of:asking:replacesCopies:creator:)`); `nil` when it is the `holder`
    /// and holds the registration no longer (replaced since the walk: a newer registration's
    /// values may be here, which this one must not let go of). What the claim let go of (the tuples of a
    /// registration of the key replaced since) is torn down after the unlock.
    func claim(
        _ arguments: ArgumentTuple,
        of registration: Registration,
        heldBy holder: DependencyInjector,
        asking thread: ResolutionContext?,
        _ creator: () -> KeptValues.Claim.Creator
    ) -> KeptValues.TupleClaim? {
        let claim = registry.withLock { registry -> KeptValues.TupleClaim? in
            // Asked before its first tuple here: a replacement lets go of the tuples it kept,
            // and a registration hashed its key's name on every resolve.
            if holder === self, !registry.kept.keepsTuples(of: registration), !registry.stores(registration) {
                return nil
            }
            return registry.kept.claim(
                arguments, of: registration, asking: thread, replacesCopies: holder !== self,
                creator: creator)
        }
        if let letGo = claim?.letGo, !letGo.isEmpty { tearDown(KeptValues.Tuples.teardowns(of: letGo)) }
        return claim
    }

    /// Runs `make` for `tuple` of `registration`, whose creation this thread claimed, keeps the
    /// value, and wakes the threads that wait for it; what a bound lets go is torn down and
    /// released after the unlock. The value is handed out until this returns: a bound does not
    /// let go of it meanwhile.
    private func create(
        _ tuple: KeptValues.Tuple,
        of registration: Registration,
        teardown: Registration.Teardown?,
        make: () throws -> Any
    ) throws -> Any {
        defer { endHandOut(of: tuple, of: registration) }
        let value: Any
        do {
            value = try make()
        } catch {
            registry.withLock { $0.kept.release(claimOf: tuple, of: registration) }?.wakeThreads(keptBy: self)
            throw error
        }
        let pending = registration.pendingTeardown(of: value, teardown: teardown)
        let keeping = registry.withLock { $0.kept.keep(value, in: tuple, of: registration, teardown: pending) }
        keeping.ended?.wakeThreads(keptBy: self)
        if keeping.isClosed {
            // Made after the close began: nobody keeps it. Torn down at once, as a singleton's would be.
            if let pending { tearDown([pending]) }
            throw InjectionError.closed(registration.key, path: [registration.key])
        }
        let teardowns = keeping.evicted.compactMap(\.teardown)
        if !teardowns.isEmpty { tearDown(teardowns) }  // torn down and released here, after the unlock
        endKeeping(of: registration, isKept: keeping.isKept, orphaning: pending)
        return value
    }

    /// Ends a resolve's hand-out of `tuple`'s value (of `registration`): what its bound lets go
    /// of first (see `KeptValues.endHandOut(of:of:)`) is torn down and released after the
    /// unlock, an async teardown in a task that `close()` awaits, while the value is still
    /// handed out (no other resolve's bound lets it go before its resolve returns it).
    func endHandOut(of tuple: KeptValues.Tuple, of registration: Registration) {
        while let evicted = registry.withLock({ $0.kept.endHandOut(of: tuple, of: registration) }) {
            tearDown(evicted.compactMap(\.teardown))
        }
    }

    /// After a tuple's value was kept or not (`isKept`; not after a close): hands the teardown
    /// of one nobody kept (`pending`, its registration's tuples let go meanwhile) to `close()`,
    /// and forgets a weak cache's tuples whose values are gone, released after the unlock.
    func endKeeping(of registration: Registration, isKept: Bool, orphaning pending: PendingTeardown?) {
        if !isKept, let pending { keepOrphan(pending) }
        if registration.caching?.isWeak == true {
            withExtendedLifetime(registry.withLock { $0.kept.forgetGoneTuples(of: registration) }) {}
        }
    }

    /// `value`, made for `key` by a factory that caches by argument, for no cache to keep (see
    /// `cachingKeeper(of:running:)`): its `teardown` waits for this injector's `close()`.
    func orphaned<Value>(_ value: Value, of key: DependencyKey, teardown: Registration.Teardown?) -> Value {
        if let teardown { keepOrphan(PendingTeardown(of: value, key: key, teardown: teardown)) }
        return value
    }
}

/// Ends the run of a task's resolve of a value cached by argument that another thread is
/// making: the resolve awaits the end of that creation (`ResolutionContext.handedBack`), which
/// it reads, never this error, then asks again.
private struct AwaitingAThreadsCreation: Error {}

extension Registration {
    /// The teardown of `value`, made by this registration, which caches by argument, if its
    /// cache would tear it down: a strongly held value's, when it has one; recorded, if it
    /// fails in a test, at the registration's line.
    func pendingTeardown(of value: Any, teardown: Teardown?) -> PendingTeardown? {
        guard caching?.isWeak == false, let teardown else { return nil }  // a weak value is its holders'
        return PendingTeardown(of: value, key: key, teardown: teardown, site: site.declarationSite)
    }
}

extension AsyncResolver {
    /// `DependencyInjector.cachedValue(of:teardown:for:make:)` for the actor face,
    /// whose factory `make` gets a resolver of the keeper's face and may await. The first
    /// resolve of a tuple makes its value in its own task, with the frames in progress, as the
    /// creation numbered after the innermost creation those frames run (see
    /// `AsyncDependencyInjector.runTransient`); a resolve that finds it being made awaits it,
    /// after the wait graph's check for a cycle (two tasks whose cached values need each
    /// other). A task that waited for a creation whose task was cancelled asks again. While a
    /// resolve is handed a value, a bound does not let go of it.
    func cachedValue<T: Sendable>(
        of key: DependencyKey,
        teardown: Registration.Teardown?,
        for tuple: ArgumentTuple,
        make: (AsyncResolver) async throws -> T
    ) async throws -> T {
        let frames = self.frames
        while true {
            guard
                let (registration, holder, keeper) = injector.core.cachingKeeper(
                    of: key, running: frames.innermostRegistration),
                let claim = keeper.claim(
                    tuple, of: registration, heldBy: holder, asking: nil,
                    { .task(number: frames.innermostCreation?.creation ?? CreationOrder.next(), awaited: nil) })
            else {
                // Decorated where it is made, before it is kept (see `Registration.decoratesOwnValues`).
                return try await injector.core.orphaned(
                    injector.decoratedIfAny(make(self), key: key, after: frames), of: key, teardown: teardown)
            }
            let face = injector.face(of: keeper)
            switch claim.claimed {
            case .ready(let value):
                guard let value = value as? T else { throw UnexpectedValueType(expected: T.self, actual: Any.self) }
                return value
            case .closed:
                throw InjectionError.closed(key, path: frames.keys)  // the innermost run is this key's
            case .cycle:  // a thread's cycle; a task asks for no thread's claim as its own
                throw InjectionError.circularDependency(path: frames.keys)
            case .running(let running):
                guard let awaited = running.awaited else {
                    await Task.yield()  // a thread makes it, for a moment (a synchronous factory): ask again
                    continue
                }
                defer { keeper.endHandOut(of: claim.tuple, of: registration) }
                // From the frames outside this run, which are the cached registration's own.
                guard let value = try await awaited.valueUnlessCreatorCancelled(waitingFrom: frames.outer) else {
                    continue
                }
                guard let value = value as? T else { throw UnexpectedValueType(expected: T.self, actual: Any.self) }
                return value
            case .claimed:
                ObservedRequest.noteMade()
                // The keeper's face is not `current` here: what its resolver runs binds it.
                let resolver = face === injector ? self : AsyncResolver(face, frames: frames, task: nil)
                return try await create(claim.tuple, of: registration, keptBy: keeper, teardown: teardown) {
                    // Made with the keeper's face as `current`, as a singleton is (see the sync face).
                    let value =
                        try await face === injector
                        ? make(resolver) : AsyncDependencyInjector.running(face) { try await make(resolver) }
                    return try await face.decoratedIfAny(value, key: key, after: frames)
                }
            }
        }
    }

    /// Makes the value of `tuple`, which this task claimed, keeps it, and hands the outcome to
    /// the tasks that await it.
    private func create<T: Sendable>(
        _ tuple: KeptValues.Tuple,
        of registration: Registration,
        keptBy keeper: DependencyInjector,
        teardown: Registration.Teardown?,
        make: () async throws -> T
    ) async throws -> T {
        defer { keeper.endHandOut(of: tuple, of: registration) }
        let key = registration.key
        let value: T
        do {
            value = try await make()
        } catch {
            let claim = keeper.registry.withLock { $0.kept.release(claimOf: tuple, of: registration) }
            claim?.awaited?.finish(
                .failure((error as? InjectionError) ?? .factoryFailed(key, path: frames.keys, underlying: error)))
            throw error
        }
        let pending = registration.pendingTeardown(of: value, teardown: teardown)
        let keeping = keeper.registry.withLock { $0.kept.keep(value, in: tuple, of: registration, teardown: pending) }
        if keeping.isClosed {
            // Made after the close began: nobody keeps it. Torn down before its resolves hear `closed`.
            if let pending { await keeper.tearDownAwaiting([pending]) }
            let error = InjectionError.closed(key, path: [key])
            keeping.ended?.awaited?.finish(.failure(error))
            throw error
        }
        keeping.ended?.awaited?.finish(.success(value))
        // Awaited here, after the waiters are woken, as the sync face's creator runs them.
        let teardowns = keeping.evicted.compactMap(\.teardown)
        if !teardowns.isEmpty { await keeper.tearDownAwaiting(teardowns) }
        keeper.endKeeping(of: registration, isKept: keeping.isKept, orphaning: pending)
        return value
    }
}
