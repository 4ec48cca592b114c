extension DependencyInjector {
    /// Declares `type` (under `name`) as a value that each opened scope provides, such as the
    /// request a scope serves: resolves, `verify()` and ``graph()`` know the key without a
    /// scope in hand, and a value that outlives scopes which asks for it is a
    /// ``InjectionError/captiveDependency(_:path:holder:holderScope:)``.
    ///
    /// ```swift
    /// app.declareScoped(RequestContext.self)
    /// app.register(OrderHandler.self, scope: .scoped) { r in try OrderHandler(request: r.resolve()) }
    /// try app.verify()  // passes: each scope provides the RequestContext
    ///
    /// let request = app.openScope()
    /// request.register(RequestContext(id: 42))
    /// let handler = try request.resolve(OrderHandler.self)
    /// ```
    ///
    /// A scope that does not register one makes its resolves throw
    /// ``InjectionError/notProvidedByScope(_:path:declaredAt:)``; so does a strict test scope,
    /// which is the scope that provides it and does not refuse the declaration as it refuses
    /// the app's registrations.
    @discardableResult
    public func declareScoped<T>(
        _ type: T.Type,
        name: String? = nil,
        fileID: StaticString = #fileID,
        line: UInt = #line
    ) -> Registered<T> {
        let key = DependencyKey(type, name: name)
        let registration = store(scope: .scoped, fileID: fileID, line: line) { scope, site in
            // Allowed in tests: a strict test scope has no value of the app's to keep out, and
            // is itself the scope that provides one; its resolve says so (`notProvidedByScope`).
            TypedRegistration<T>(
                { _ throws(InjectionError) in
                    throw .notProvidedByScope(key, path: Self.runningPath(endingAt: key), declaredAt: site)
                }, key: key, scope: scope, site: site, completion: nil, inTests: .allowed)
        }
        return Registered(injector: self, registration: registration)
    }

    /// The keys being resolved on either face, outermost first, ending with `key`.
    static func runningPath(endingAt key: DependencyKey) -> [DependencyKey] {
        let path = AsyncResolutionContext.keys + ResolutionContext.current.path
        return path.last == key ? path : path + [key]
    }

    /// Checks that this injector may hand out a value of `registration`, which is scoped, kept
    /// by `keeper`: no value that outlives the scope is asking for it, and the resolve runs in
    /// an opened scope (whose store `keeper.scopedValue` reaches itself). `context`: this thread's.
    func checkScoped(
        _ registration: Registration,
        keptBy keeper: DependencyInjector,
        in context: ResolutionContext = .current
    ) throws(InjectionError) {
        _ = try checkScoped(registration, keptBy: keeper, insideValueOf: innermostKept(in: context))
    }

    /// The innermost value being built that a scope keeps, for `checkScoped`: the thread's, else
    /// the task's frames' only while it builds something (most resolves: no async builder runs
    /// in the process, and the task-locals are not read).
    @inline(__always)
    private func innermostKept(in context: ResolutionContext) -> Registration? {
        context.innermostKept ?? (AsyncWrapperCapture.isBuilding ? AsyncResolutionContext.frames.innermostKept : nil)
    }

    /// `checkScoped(_:keptBy:in:)` for a resolve of this opened scope's own kept value, whose
    /// store (its own registry's lock) the caller reaches itself: nothing is returned, nor
    /// retained and released for it.
    private func checkScopedHere(_ registration: Registration, in context: ResolutionContext) throws(InjectionError) {
        // The common case, inside another value of the scope (or none): no holder retained to learn it.
        if let holder = context.innermostKeptUnretained {
            guard holder._withUnsafeGuaranteedRef({ $0.isKeptPastOpenedScopes }) else { return }
            try checkNotCaptive(registration, keptBy: self, insideValueOf: holder.takeUnretainedValue())
        } else if AsyncWrapperCapture.isBuilding {
            try checkNotCaptive(registration, keptBy: self, insideValueOf: AsyncResolutionContext.frames.innermostKept)
        }
    }

    /// `checkScoped(_:keptBy:in:)` once the innermost value being built that its scope keeps,
    /// `holder`, is known: the actor face knows it from the frames it resolves after, and
    /// reads no task-local for it (nor takes a resolve's lock to find its unbound frames).
    /// Returns the opened scope's store of kept values, which the actor face claims in.
    func checkScoped(
        _ registration: Registration,
        keptBy keeper: DependencyInjector,
        insideValueOf holder: Registration?
    ) throws(InjectionError) -> LockedKeptValues {
        try checkNotCaptive(registration, keptBy: keeper, insideValueOf: holder)
        guard keeper.opensScope, let scoped = keeper.keptValues else {
            throw .outsideScope(registration.key, path: Self.runningPath(endingAt: registration.key))
        }
        return scoped
    }

    /// Throws `captiveDependency` when `holder`, the innermost value being built that a scope
    /// keeps, outlives the scope `keeper` that keeps `registration`'s value.
    @inline(__always)
    private func checkNotCaptive(
        _ registration: Registration,
        keptBy keeper: DependencyInjector,
        insideValueOf holder: Registration?
    ) throws(InjectionError) {
        // An argument cache (`register(_:caching:)`) keeps its values past the request too.
        if let holder, holder.isKeptPastOpenedScopes, !isRegistered(holder, within: keeper) {
            throw .captiveDependency(
                registration.key, path: Self.runningPath(endingAt: registration.key), holder: holder.key,
                holderScope: holder.keptLifetime)
        }
    }

    /// Whether `registration` is stored in this injector or an ancestor up to the opened scope
    /// `keeper`: a singleton registered inside a scope lives no longer than the scope. A scope
    /// the library opens inside the user's (a test, preview or `verify()` scope, which keeps
    /// its own copies of singletons) lives within it, and so does its copy of a singleton
    /// registered there: the walk goes on up to the user's scope.
    private func isRegistered(_ registration: Registration, within keeper: DependencyInjector) -> Bool {
        guard keeper.opensScope else { return false }
        let scope = sequence(first: keeper, next: \.parent).first { $0.opensScope && !$0.keepsOwnSingletons } ?? keeper
        for injector in sequence(first: self, next: \.parent) {
            let stored = injector.registry.withLock { registry in
                if case .factory(let current, _)? = registry[registration.key] {
                    registration.isStored(as: current)
                } else {
                    false
                }
            }
            if stored { return true }
            if injector === scope { return false }
        }
        return false
    }

    /// `error`, thrown while `keeper` built `registration`'s kept value for a resolve through
    /// this injector, with a suggestion when what was missing is registered here but not
    /// where the keeper looks: a singleton of the app that needs a value of a child's.
    func explained(
        _ error: InjectionError,
        building registration: Registration,
        keptBy keeper: DependencyInjector
    ) -> InjectionError {
        guard keeper !== self, case .notRegistered(let missing, let path, var suggestions) = error,
            !suggestions.contains(.registeredBelowBuilder(registration.key)),
            !suggestions.contains(.registeredBelowScope(registration.key)),
            lookup(missing) != nil, keeper.lookup(missing) == nil
        else { return error }
        // A scoped value is built by the opened scope that keeps it (see `builder(of:)`).
        let below: Suggestion =
            registration.isScoped ? .registeredBelowScope(registration.key) : .registeredBelowBuilder(registration.key)
        suggestions.insert(below, at: 0)
        return .notRegistered(missing, path: path, suggestions: suggestions)
    }
}

extension AsyncDependencyInjector {
    /// Declares `type` (under `name`) as a value that each opened scope provides, as
    /// ``DependencyInjector/declareScoped(_:name:fileID:line:)`` does:
    /// `await server.declareScoped(RequestContext.self)`.
    @discardableResult
    public func declareScoped<T: Sendable>(
        _ type: T.Type,
        name: String? = nil,
        fileID: StaticString = #fileID,
        line: UInt = #line
    ) -> AsyncRegistered<T> {
        AsyncRegistered(base: core.declareScoped(type, name: name, fileID: fileID, line: line))
    }
}

extension DependencyInjector {
    /// This opened scope's own store of kept values (`keptValues`, known to be there), reached
    /// through the registry at each use: a `LockedKeptValues` held across a call retained and
    /// released the registry's lock for it, twice a scoped value.
    private var ownKeptValues: LockedKeptValues {
        LockedKeptValues(registry: registry)
    }

    /// The value of `registration`, a `.scoped` one (an ancestor's, or this scope's own), that
    /// this opened scope keeps: created now by this thread if need be, once for the scope however many threads
    /// ask at once.
    ///
    /// The creation claims its place in the scope's own list (`KeptValues`), so that the
    /// common case, no other thread creating it, takes this scope's lock alone. A thread that
    /// finds another creating the value waits for it (see `wait(for:of:context:handingBack:)`).
    /// `nil` when `registration` was replaced or removed while this thread waited for its
    /// value: the caller looks the key up again; `nil` too for a task's resolve, which is
    /// handed the creation's end to await instead (see `ResolutionContext.handedBack`).
    /// `holder` stores `registration`, when the resolve knows it (`nil` for one found in an
    /// ancestor's table), which the kept value remembers (see `KeptValues.Kept.isReplaced`).
    /// The actor face claims the same places (see `AsyncDependencyInjector.scopedRequest`).
    /// The store is this scope's own (`ownKeptValues`).
    @inline(never)
    func scopedValue(
        of registration: Registration,
        heldBy holder: DependencyInjector?,
        context: ResolutionContext
    ) throws(InjectionError) -> Any? {
        while true {
            switch ownKeptValues.withLock({ $0.claim(registration, asking: context) { .thread(context) } }) {
            case .ready(let value):
                return value
            case .cycle:
                throw .circularDependency(path: context.path + [registration.key])
            case .closed:
                throw .closed(registration.key, path: context.path + [registration.key])
            case .running(let claim):
                try wait(
                    for: claim, of: registration.key, context: context,
                    handingBack: context.handsBackWaits() ? registration : nil)
                // A task's resolve awaits the creation's end, then asks again (see `wait`).
                if context.handedBack != nil { return nil }
                // Re-registered while we waited: the value just made may be the old one's.
                guard holder?.stores(registration) ?? isStoredHereOrAbove(registration) else { return nil }
            case .claimed:
                return try createScopedValue(of: registration, heldBy: holder, context: context)
            }
        }
    }

    /// The value of `registration`, a `.scoped` one that this injector's resolve of `key`
    /// found in an ancestor's published table (see `PublishedTable.slotPassingMissesUp`), as a
    /// `T`: this opened scope keeps it, so the walk's answer is known without the walk. Any
    /// other case (this injector opens no scope, the resolve shares values, the registration
    /// was replaced while the resolve waited) takes the walk.
    @inline(never)
    func scopedValue<T>(found registration: Registration, as type: T.Type, key: DependencyKey)
        throws(InjectionError) -> T
    {
        let context = ResolutionContext.current
        if opensScope, !context.isSharing {
            try checkScopedHere(registration, in: context)
            if let value = try scopedValue(of: registration, heldBy: nil, context: context) {
                return try Self.cast(value, to: T.self, key: key)
            }
            // A task's resolve, which awaits the creation's end instead: not the walk, which
            // would be handed it again, and again.
            // Never seen: only a task's resolve is handed a wait (not a teardown the core runs in
            // it, see `ResolutionContext.runningUserCode`), and it reads `handedBack` first.
            if context.handedBack != nil { throw .circularDependency(path: []) }
        }
        return try resolve(key, as: T.self, after: nil, instrumented: false) { key throws(InjectionError) in
            try unregistered(key, as: T.self)
        }
    }

    /// Who builds a value this opened scope keeps of a registration that `holder` stores: the
    /// holder when it is a child below the scope, with its own registrations and decorators, as
    /// a child builds its own singleton; this scope otherwise (its own registration, or an
    /// ancestor's, whose value each scope makes with what it provides).
    func builder(of holder: DependencyInjector?) -> DependencyInjector {
        guard let holder, holder !== self else { return self }
        var below = holder.parent
        while let injector = below {
            if injector === self { return holder }
            below = injector.parent
        }
        return self
    }

    /// Runs the factory of `registration`, whose place this thread claimed in `ownKeptValues`, and
    /// keeps its value; wakes the threads that wait for it, succeeded or failed.
    private func createScopedValue(
        of registration: Registration,
        heldBy holder: DependencyInjector?,
        context: ResolutionContext
    ) throws(InjectionError) -> Any {
        let value: Any
        do {
            // This scope's own or an ancestor's registration (`holder` unknown or above): run
            // here, with no builder retained and released for it.
            if let holder, holder !== self {
                value = try builder(of: holder).run(registration, in: context)
            } else {
                value = try run(registration, in: context)
            }
        } catch {
            ownKeptValues.withLock { $0.release(claimOf: registration) }?.wakeThreads(keptBy: self)
            throw error
        }
        // Closed meanwhile: nothing is kept, and the claim ends all the same.
        let keeping = ownKeptValues.withLock {
            $0.keep(value, producedBy: registration, heldBy: holder, keptBy: self, claimed: true)
        }
        keeping.ended?.wakeThreads(keptBy: self)
        // After the claim ends, so that no resolve waiting for the value waits for user code.
        // Most keep nothing in another's place: no list is made and released for them.
        if keeping.letsGo { tearDown(letGo(by: keeping, of: registration)) }
        if keeping.isClosed { throw refusalAfterClose(of: value, producedBy: registration, path: context.path) }
        return consume value  // moved out: a copy and a destroy of an `Any` each otherwise
    }
}

extension AsyncDependencyInjector {
    /// What a resolve of `registration`, a `.scoped` one, finds in the opened scope `keeper`,
    /// once checked (`checkScoped`, which throws outside one): the value, a creation for this
    /// task to run, or another task's to await. The place is claimed as the sync face claims
    /// it (`DependencyInjector.scopedValue(of:heldBy:context:)`), in the scope's one store (its own
    /// registrations' values too), under its lock alone: no process-wide rendezvous, and what
    /// waiters await is made only when one waits.
    nonisolated func scopedRequest(
        _ registration: Registration,
        keptBy keeper: DependencyInjector,
        after frames: AsyncResolutionContext.Frames
    ) throws(InjectionError) -> AsyncSingletonCreation.Request {
        // The innermost kept value being built: the thread's (a synchronous factory on the
        // way), else that of `frames`, the path this resolve checks cycles on. They hold the
        // task's own (read from its task-locals otherwise), and past them the resolver's run,
        // when a task the factory started resolves through it. With none there, the task's:
        // a resolver kept from a resolve that has ended, used in a singleton's factory, has no
        // frames of its own running, and resolves as the injector would, in the task's run.
        // The thread's context read in place: retained for the read, it cost a retain and a release.
        let holder =
            ResolutionContext.withCurrent { $0.innermostKept } ?? frames.innermostKept
            ?? (AsyncWrapperCapture.isBuilding ? AsyncResolutionContext.frames.innermostKept : nil)
        let scoped = try core.checkScoped(registration, keptBy: keeper, insideValueOf: holder)
        // Numbered when this task takes the place: a ready value costs no count shared by all cores.
        var number: AsyncSingletonCreation.Number = 0
        let claimed = scoped.withLock { values in
            values.claim(registration, asking: nil) {
                number = CreationOrder.next()
                return .task(number: number, awaited: nil)
            }
        }
        // Consumed (its payloads moved, not copied), as `produce` consumes the request this makes.
        switch consume claimed {
        case .ready(let value):
            return .ready(value)
        case .claimed:
            return .create(number, in: scoped)
        case .running(let claim):
            guard let awaited = claim.awaited else { return .askAgain }  // a thread's, ending
            return .wait(awaited)
        case .cycle:  // a thread's cycle; this task's frames were checked before
            throw .circularDependency(path: frames.keys + [registration.key])
        case .closed:
            throw .closed(registration.key, path: frames.keys + [registration.key])
        }
    }

    /// Runs `registration`'s factory in this task, whose resolve claimed its place in the
    /// opened scope `keeper` (in `scoped`) as the creation numbered `number`, `holder` storing
    /// it (`nil`: found in a published table); keeps the value
    /// there, or lets go of the place when the factory fails, and hands the outcome to the
    /// resolves that await the creation, if any. A value made after the scope began to close
    /// is torn down, and `closed` thrown, as on the sync face. Inlined into its callers
    /// (`produce`, and `scopedValue(found:after:)` for a value found without the walk): an
    /// async call of its own cost each scoped value a frame and two executor checks.
    /// `always`, not `__always`, a hint the optimiser declines once `run` is inlined here.
    #if compiler(>=6.3)
        @inline(always)
    #else
        @inline(__always)
    #endif
    nonisolated func createScoped(
        _ registration: Registration,
        heldBy holder: DependencyInjector?,
        as number: AsyncSingletonCreation.Number,
        in scoped: LockedKeptValues,
        keptBy keeper: DependencyInjector,
        after frames: AsyncResolutionContext.Frames
    ) async throws(InjectionError) -> any Sendable {
        let (inside, run, _) = frames.appending(registration, creation: number)
        // Thrown, not a `Result`, which is copied through its value witnesses: one is made only
        // for the resolves that await the creation, if any.
        let value: any Sendable
        do {
            value = try await face(of: keeper.builder(of: holder)).run(registration, frames: inside)
        } catch {
            inside.end(run)
            scoped.withLock { $0.release(claimOf: registration) }?.awaited?.finish(.failure(error))
            throw error
        }
        inside.end(run)
        // Closed meanwhile: nothing is kept, and the claim ends all the same.
        let kept = scoped.withLock {
            $0.keep(value, producedBy: registration, heldBy: holder, keptBy: keeper, claimed: true)
        }
        if kept.isClosed {
            // Made after the close began: nobody keeps it. Torn down before its resolves hear `closed`.
            await keeper.tearDownUnkept(value, madeBy: registration)
            let closed = InjectionError.closed(registration.key, path: frames.keys + [registration.key])
            kept.ended?.awaited?.finish(.failure(closed))
            throw closed
        }
        kept.ended?.awaited?.finish(.success(value))
        // After the waiters are woken, so that none waits for user code.
        let letGo = keeper.letGo(by: kept, of: registration)
        if !letGo.isEmpty { await keeper.tearDownAwaiting(letGo) }  // no suspension point for nothing
        return consume value  // moved out: a copy and a destroy of an `Any` each otherwise
    }
}
