extension AsyncDependencyInjector {
    /// Returns the value registered for `type` under `name`, awaiting its factory; see
    /// ``DependencyInjector/resolve(_:name:)-method``:
    /// `let users = try await injector.resolve(UserRepository.self)`.
    ///
    /// While a singleton is being created, every resolve of it awaits that one creation. A ready
    /// value (an instance, or a singleton already created here) is read without entering the
    /// actor, and where the OS has `Synchronization` without a lock: no hop, no suspension.
    ///
    /// - Throws: What the sync face throws, and ``InjectionError/factoryFailed(_:path:underlying:)``
    ///   with a `CancellationError` when this task is cancelled while it waits for a singleton.
    @inlinable
    public nonisolated func resolve<T: Sendable>(
        _ type: T.Type = T.self,
        name: String? = nil
    ) async throws(InjectionError) -> T {
        // The sync face's hot path, inlined here too: no async call for a ready value.
        if let found = core.ready.slotUnlessObserved(for: ObjectIdentifier(T.self), name: name) {
            // A transient or scoped registration with an async factory: run here, with no
            // lock taken to find it.
            if found.holdsFactoryForTheActorFace {
                return try await resolvePublished(type, name: name, found: found.registration())
            }
            do {
                return try found.value(as: T.self, name: name, in: core)
            } catch {
                return try await recovering(from: error, resolving: T.self, name: name)
            }
        }
        return try await resolveLocked(type, name: name)
    }

    /// `error`, which a synchronous factory run from a published table threw, with the keys
    /// that the task's runs (or `resolver`'s) are resolving around it first in its path (see
    /// `InjectionError.after(_:)`); or, where the factory of `type` itself runs only on the main
    /// actor (a `mainActor` registration, which threw before it ran) and this is not the main
    /// actor, the value made there.
    @usableFromInline
    @inline(never)
    nonisolated func recovering<T: Sendable>(
        from error: InjectionError,
        resolving type: T.Type,
        name: String?,
        in resolver: AsyncResolver? = nil
    ) async throws(InjectionError) -> T {
        let keys = resolver?.frames.keys ?? AsyncResolutionContext.keys
        let key = DependencyKey(T.self, name: name)
        // Only `type`'s own, which threw before it ran (or a forward of `type` to one, which
        // only looked it up): a factory that needs a main-actor value has run in part already.
        guard case .requiresMainActor(let failing, let path) = error, !MainQueue.isCurrent,
            path == [key] || (path == [key, failing] && core.forwards(key, to: failing))
        else { throw error.after(keys) }
        let core = self.core
        return try await Self.onMainActor(for: key, after: keys) { () throws(InjectionError) in
            try core.resolve(T.self, name: name)
        }
    }

    /// What `make`, a synchronous resolve through the core of `key`, a registration that runs on
    /// the main actor, returns when run there; its failure with `keys` first in its path. The
    /// value is carried off the main actor unchecked, as `MainQueue.run` carries it out of its
    /// factory: what the sync face hands out need not be `Sendable` to the compiler.
    static func onMainActor<Value>(
        for key: DependencyKey,
        after keys: [DependencyKey],
        _ make: @escaping @Sendable () throws(InjectionError) -> Value
    ) async throws(InjectionError) -> Value {
        nonisolated(unsafe) var outcome: Result<Value, InjectionError>?
        await MainActor.run { outcome = Result { () throws(InjectionError) in try make() } }
        // Unreachable: the body ran, so `outcome` is set.
        guard let outcome else { throw .requiresMainActor(key, path: keys + [key]) }
        do {
            return try outcome.get()
        } catch {
            throw error.after(keys)
        }
    }

    /// `resolve(_:name:)` where no published table has the value. `resolver`, one of this
    /// face's, has the path; without it, the task-local has it. Apart from `resolvePublished`,
    /// whose inlined run would leave it too large for the compiler to inline the lookup and walk.
    @usableFromInline
    nonisolated func resolveLocked<T: Sendable>(
        _ type: T.Type,
        name: String?,
        in resolver: AsyncResolver? = nil
    ) async throws(InjectionError) -> T {
        let key = DependencyKey(type, name: name)
        let frames = resolver?.frames ?? AsyncResolutionContext.frames
        return try await resolve(key, as: T.self, observed: true, after: frames, resolverTask: resolver?.task) {
            key throws(InjectionError) in try await unregistered(key, as: T.self, after: frames)
        }
    }

    /// `resolve(_:name:)` of `found`, a transient registration with an async factory or a
    /// `.scoped` one that a published table has: run (or, scoped, found in this opened scope) as
    /// the lookup would, with no lookup (`nil`: looked up, as `resolveLocked(_:name:in:)` does).
    /// `resolver` as for `resolveLocked(_:name:in:)`.
    @usableFromInline
    nonisolated func resolvePublished<T: Sendable>(
        _ type: T.Type,
        name: String?,
        found: Registration?,
        in resolver: AsyncResolver? = nil
    ) async throws(InjectionError) -> T {
        guard let found else { return try await resolveLocked(type, name: name, in: resolver) }
        if found.isScoped { return try await resolveScoped(type, name: name, found: found, in: resolver) }
        let frames = resolver?.frames ?? AsyncResolutionContext.frames
        return try await DependencyInjector.cast(
            runTransient(found, after: frames, resolverTask: resolver?.task), to: T.self,
            key: DependencyKey(type, name: name))
    }

    /// `resolvePublished(_:name:found:in:)` of `found`, a `.scoped` registration: this opened
    /// scope keeps its value, so the walk's answer is known without the walk, its locks and
    /// its retains, as on the sync face (`DependencyInjector.scopedValue(found:as:key:)`). The
    /// walk answers when this injector opens no scope, or when the registration was replaced
    /// or removed while this task waited for another's creation. Apart, so as not to slow the
    /// transient's path above. A resolver calls it directly (see
    /// `AsyncResolver.resolve(_:name:)`); `found` is `nil` only if the slot had none (looked up).
    @usableFromInline
    @inline(never)
    nonisolated func resolveScoped<T: Sendable>(
        _ type: T.Type,
        name: String?,
        found: Registration?,
        in resolver: AsyncResolver?
    ) async throws(InjectionError) -> T {
        // A synchronous factory's: made by the core, awaited while a thread makes it.
        if let found, !found.isAsyncFactory {
            return try await resolveSynchronousScoped(type, name: name, found: found, in: resolver)
        }
        guard let found, core.opensScope,
            let value = try await scopedValue(found: found, after: resolver?.frames ?? AsyncResolutionContext.frames)
        else { return try await resolveLocked(type, name: name, in: resolver) }
        // Consumed: its payloads move into the cases.
        switch consume value {
        case .kept(let kept): return try DependencyInjector.cast(kept, to: T.self, key: DependencyKey(type, name: name))
        case .made(let made): return try DependencyInjector.cast(made, to: T.self, key: DependencyKey(type, name: name))
        }
    }

    /// `resolveScoped(_:name:found:in:)` of `found`, a `.scoped` registration with a synchronous
    /// factory that a published table has: found or made in this opened scope by the core, as on the sync face,
    /// except that while another thread is making the value, this task awaits the end of that
    /// creation (suspended, and stopping when cancelled), then asks again, where the core would
    /// sleep on a thread of the cooperative pool. `nil`: looked up, as `resolveLocked` does.
    @inline(never)
    private nonisolated func resolveSynchronousScoped<T: Sendable>(
        _ type: T.Type,
        name: String?,
        found: Registration,
        in resolver: AsyncResolver?
    ) async throws(InjectionError) -> T {
        guard core.opensScope else { return try await resolveLocked(type, name: name, in: resolver) }
        let key = DependencyKey(type, name: name)
        while true {
            let context = ResolutionContext.current
            context.awaitsCreations = true
            let outcome = Result { () throws(InjectionError) -> T in
                try core.scopedValue(found: found, as: T.self, key: key)
            }
            let end = context.handedBack
            context.endAwaitingCreations()
            guard let end else {
                do {
                    return try outcome.get()
                } catch {
                    return try await recovering(from: error, resolving: T.self, name: name, in: resolver)
                }
            }
            _ = try await end.value(waitingFrom: resolver?.frames ?? AsyncResolutionContext.frames)
        }
    }

    /// What `scopedValue(found:after:)` finds: a value the scope kept already, or one made or
    /// awaited now, as the factory made it. Apart, not converted to one `Any`: that copied each
    /// value made into a new container.
    private enum ScopedValue {
        case kept(Any)
        case made(any Sendable)
    }

    /// The value of `registration`, a `.scoped` one, that this opened scope keeps, claimed, made
    /// or awaited as `produce` does; `nil` when the registration was replaced or removed while
    /// this task waited for another's creation (see `resolveScoped(_:name:found:in:)`).
    #if compiler(>=6.3)
        @inline(always)
    #else
        @inline(__always)
    #endif
    private nonisolated func scopedValue(
        found registration: Registration,
        after frames: AsyncResolutionContext.Frames
    ) async throws(InjectionError) -> ScopedValue? {
        try AsyncResolutionContext.checkNotResolving(registration, in: frames)
        while true {
            switch try scopedRequest(registration, keptBy: core, after: frames) {
            case .ready(let value):
                return value.map { .kept($0) }  // `nil`: stale
            case .create(let number, let scoped):
                ObservedRequest.noteMade()
                // Its holder unknown (an ancestor's table, or this scope's own): the value is
                // built here, as the scope builds an ancestor's, and asked after as found.
                return .made(
                    try await createScoped(
                        registration, heldBy: nil, as: number, in: scoped, keptBy: core, after: frames))
            case .wait(let creation):
                guard let value = try await creation.valueUnlessCreatorCancelled(waitingFrom: frames) else {
                    continue  // the creating task was cancelled, not this one: ask again
                }
                // Registered again while this task waited: the walk finds what is stored now.
                guard core.isStoredHereOrAbove(registration) else { return nil }
                return .made(value)
            case .askAgain:
                await Task.yield()
            case .started, .apart:
                return nil  // a singleton's or a `.graph` value's: never a scoped one's
            }
        }
    }

    /// The async form of `DependencyInjector.resolve(_:as:after:instrumented:ifAbsent:)`: the
    /// same lookup, walk and caches; only an async factory is awaited. Nonisolated, so that
    /// concurrent resolves never queue on the actor. `resolverTask`: asked through the resolver
    /// of a run, whose `frames` are these, the task that run binds for (see `run`). Inlined
    /// into `resolveLocked`: an async call of its own cost each resolve a frame.
    @inline(__always)
    nonisolated func resolve<T: Sendable>(
        _ key: DependencyKey,
        as type: T.Type,
        observed: Bool,
        after frames: AsyncResolutionContext.Frames,
        resolverTask: UInt? = nil,
        startingAt base: DependencyInjector? = nil,
        ifAbsent: (DependencyKey) async throws(InjectionError) -> T
    ) async throws(InjectionError) -> T {
        // A collection's registration by hand in `base`, past the gatherings below it: the walk only.
        if let base {
            return try await resolve(
                key, as: T.self, after: frames, resolverTask: resolverTask, startingAt: base, ifAbsent)
        }
        var miss = Miss.absent
        let registry = core.registry.lock()
        let instrumentation = observed ? registry.pointee.diagnostics.instrumentation : nil
        if let slot = registry.pointee.readySlot(key, miss: &miss) {
            if instrumentation != nil {
                return try core.reportedValue(of: slot, as: T.self, key: key, to: instrumentation, frames: frames)
            }
            defer { core.registry.unlock() }
            return try Registry.ReadySlot.value(of: slot, as: T.self, key: key)
        }
        core.registry.unlock()
        if instrumentation != nil {
            return try await instrumentedResolve(key, as: T.self, after: frames, ifAbsent: ifAbsent)
        }

        // An async transient of this injector's own that shares nothing with the rest of the
        // resolve (what servers build per request): run here, without the walk or `produce`.
        if case .pending(let registration) = miss, registration.isTransient, !registration.sharesValues,
            case .async = registration.factory
        {
            ObservedRequest.noteMade()
            let value = try await runTransientApart(registration, after: frames, resolverTask: resolverTask)
            return try DependencyInjector.cast(value, to: T.self, key: key)
        }
        return try await resolve(key, as: T.self, after: frames, resolverTask: resolverTask, locating: miss, ifAbsent)
    }

    /// `resolve(_:as:observed:after:resolverTask:startingAt:ifAbsent:)` out of line, for the
    /// callers off the hot path, so that each does not inline a copy of it.
    @inline(never)
    nonisolated func resolveApart<T: Sendable>(
        _ key: DependencyKey,
        as type: T.Type,
        observed: Bool,
        after frames: AsyncResolutionContext.Frames,
        ifAbsent: (DependencyKey) async throws(InjectionError) -> T
    ) async throws(InjectionError) -> T {
        try await resolve(key, as: T.self, observed: observed, after: frames, ifAbsent: ifAbsent)
    }

    /// The walk and the factories of `resolve(_:as:observed:after:resolverTask:ifAbsent:)`,
    /// after `miss` (this injector's own lookup), or from `base` (see `DependencyInjector.locate`).
    /// Inlined into its caller: an async call of its own cost each resolve a frame.
    @inline(__always)
    private nonisolated func resolve<T: Sendable>(
        _ key: DependencyKey,
        as type: T.Type,
        after frames: AsyncResolutionContext.Frames,
        resolverTask: UInt?,
        locating miss: Miss? = nil,
        startingAt base: DependencyInjector? = nil,
        _ ifAbsent: (DependencyKey) async throws(InjectionError) -> T
    ) async throws(InjectionError) -> T {
        var location = core.locate(key, after: miss, startingAt: base)
        while true {
            switch consume location {
            case .ready(let slot):
                return try slot.value(as: T.self, key: key)
            case .absent:
                return try await ifAbsent(key)
            case .refused(let key, let site):
                throw DependencyInjector.refusal(
                    of: key, registeredAt: site, path: frames.keys + [key], resolvingFrom: core)
            case .pending(let registration, let holder, let keeper):
                if let value = try await produce(
                    registration, heldBy: holder, keptBy: keeper, after: frames, resolverTask: resolverTask)
                {
                    return try DependencyInjector.cast(value, to: T.self, key: key)
                }
                location = core.locate(key, startingAt: base)  // replaced or removed while we waited: look again
            }
        }
    }

    /// The value of `key` as an untyped value, `nil` when nothing holds it (eager singletons).
    /// A registered `nil` is a value, as `DependencyInjector.value(for:observed:)` says.
    nonisolated func value(
        for key: DependencyKey,
        observed: Bool = false,
        after frames: AsyncResolutionContext.Frames = AsyncResolutionContext.frames
    ) async throws(InjectionError) -> (any Sendable)? {
        var isAbsent = false
        func absent(_: DependencyKey) -> any Sendable {
            isAbsent = true
            return ()
        }
        let value = try await resolveApart(
            key, as: (any Sendable).self, observed: observed && core.observes(key), after: frames, ifAbsent: absent)
        return isAbsent ? nil : value
    }

    /// `DependencyInjector.produce` for an async factory: a transient runs in the current
    /// task; a singleton or weak instance once, awaited by every resolve that asks meanwhile.
    /// A synchronous factory is run by the core. `nil` when `registration` was replaced or
    /// removed while this task waited for its value: the caller looks the key up again.
    /// Not inlined into the walk: every specialisation of the walk would carry a copy of it.
    private nonisolated func produce(
        _ registration: Registration,
        heldBy holder: DependencyInjector,
        keptBy keeper: DependencyInjector,
        after frames: AsyncResolutionContext.Frames,
        resolverTask: UInt?
    ) async throws(InjectionError) -> Any? {
        while true {
            guard let request = try request(registration, heldBy: holder, keptBy: keeper, after: frames) else {
                ObservedRequest.noteMade()
                return try await runTransientApart(registration, after: frames, resolverTask: resolverTask)
            }
            do {
                // Consumed: its payloads move into the cases (matched in place, they were copied
                // out through the enum's value witnesses).
                switch consume request {
                case .ready(let value):
                    return value
                case .started(let creation):
                    ObservedRequest.noteMade()
                    return try await creation.value(waitingFrom: frames)
                case .wait(let creation):
                    guard let value = try await creation.valueUnlessCreatorCancelled(waitingFrom: frames) else {
                        continue  // the creating task was cancelled, not this one: ask again
                    }
                    // Registered again while this task waited for another's creation: the value is
                    // the old registration's, and the caller looks the key up again, as a waiting
                    // thread does (the resolve that started the creation gets what it made).
                    guard holder.stores(registration) else { return nil }
                    return value
                case .apart(let request):
                    switch try await produceApart(
                        request, of: registration, heldBy: holder, keptBy: keeper, after: frames,
                        resolverTask: resolverTask)
                    {
                    case .value(let value): return value
                    case .lookAgain: return nil
                    case .askAgain: continue
                    }
                case .create(let number, let scoped):
                    ObservedRequest.noteMade()
                    return try await createScopedApart(
                        registration, heldBy: holder, as: number, in: scoped, keptBy: keeper, after: frames)
                case .askAgain:
                    await Task.yield()
                }
            } catch {
                throw core.explained(error, building: registration, keptBy: keeper)
            }
        }
    }

    /// `runTransient` out of line, for the transients the locked path runs (most are found
    /// published), as `createScopedApart` is: so that the run's locals are not in the frames of
    /// `produce` and `resolveLocked` that every level of a chain of singleton creations keeps.
    @inline(never)
    private nonisolated func runTransientApart(
        _ registration: Registration,
        after frames: AsyncResolutionContext.Frames,
        resolverTask: UInt?
    ) async throws(InjectionError) -> any Sendable {
        try await runTransient(registration, after: frames, resolverTask: resolverTask)
    }

    /// `createScoped` out of line, for the walk's scoped values (most are found published, see
    /// `resolveScoped`), so that its run's locals are not in the frame of `produce` that every
    /// level of a chain of singleton creations keeps while it waits.
    @inline(never)
    private nonisolated func createScopedApart(
        _ registration: Registration,
        heldBy holder: DependencyInjector,
        as number: AsyncSingletonCreation.Number,
        in scoped: LockedKeptValues,
        keptBy keeper: DependencyInjector,
        after frames: AsyncResolutionContext.Frames
    ) async throws(InjectionError) -> any Sendable {
        try await createScoped(registration, heldBy: holder, as: number, in: scoped, keptBy: keeper, after: frames)
    }

    /// What `produce` makes of a rarer `request` (a `.graph` value's, made here or awaited; a
    /// main-actor registration's): apart, so that `produce`'s frame, which a scoped value's
    /// creation allocates, holds none of it.
    @inline(never)
    private nonisolated func produceApart(
        _ request: AsyncSingletonCreation.Apart,
        of registration: Registration,
        heldBy holder: DependencyInjector,
        keptBy keeper: DependencyInjector,
        after frames: AsyncResolutionContext.Frames,
        resolverTask: UInt?
    ) async throws(InjectionError) -> Produced {
        switch request {
        case .onMainActor:
            let core = self.core
            let value = try await Self.onMainActor(for: registration.key, after: frames.keys) {
                () throws(InjectionError) in
                try ObservedRequest.noting { () throws(InjectionError) in
                    try core.produce(registration, heldBy: holder, keptBy: keeper)
                }
            }
            return value.map { .value($0) } ?? .lookAgain  // `nil`: replaced meanwhile
        case .awaitThread(let end):
            // Its value is kept by now, or its factory failed (this task may make it): asked again.
            _ = try await end.value(waitingFrom: frames)
            return .askAgain
        case .share(let creation, let shared):
            ObservedRequest.noteMade()
            return .value(try await runShared(registration, as: creation, in: shared, after: frames))
        case .waitShared(let creation):
            switch try await creation.sharedValue(waitingFrom: frames) {
            case .value(let value):
                // Registered again while this task waited, as for a singleton's creation.
                return holder.stores(registration) ? .value(value) : .lookAgain
            case .askAgain:
                return .askAgain
            case .makeUnshared:
                ObservedRequest.noteMade()
                guard case .plain = registration.factory else {
                    return .value(try await runTransient(registration, after: frames, resolverTask: resolverTask))
                }
                return try core.produce(registration, heldBy: holder, keptBy: keeper).map { .value($0) } ?? .lookAgain
            }
        }
    }

    /// What `produceApart` made: the value, or what `produce` does next.
    private enum Produced {
        case value(Any)
        /// The registration was replaced while this task waited: look the key up again.
        case lookAgain
        /// Ask for the value again.
        case askAgain
    }

    /// What `produce` does but its waits: `nil` for a transient that is to run in this task.
    /// Not `async`, and not inlined into `produce`, so that none of this stays in the frame
    /// that each level of a chain of creations keeps while it waits.
    @inline(never)
    private nonisolated func request(
        _ registration: Registration,
        heldBy holder: DependencyInjector,
        keptBy keeper: DependencyInjector,
        after frames: AsyncResolutionContext.Frames
    ) throws(InjectionError) -> AsyncSingletonCreation.Request? {
        // Only a registration that shares values has one shared (no lock taken for the rest).
        if registration.sharesValues, let value = frames.shared?.value(madeBy: registration, builtBy: core) {
            return .ready(value)
        }
        switch registration.factory {
        case .async:
            // `sharesValues` first: a stored flag, where a `Scope` compares its payloads.
            if registration.sharesValues, registration.scope == .graph, let shared = frames.shared,
                let request = try graphRequest(registration, in: shared, after: frames)
            {
                return request
            }
        case .withArguments(let types, _, _):
            throw .mismatchedArguments(
                registration.key, path: frames.keys + [registration.key], expected: types, given: [])
        case .plain:
            // The sync face's main-actor registration (or a forward to one), off the main actor:
            // awaited there, before any of it runs, unless its value is kept already.
            if registration.runsOnMainActor || registration.forwardedTo != nil, !MainQueue.isCurrent,
                core.awaitsMainActor(registration, heldBy: holder, keptBy: keeper)
            {
                return .apart(.onMainActor)
            }
            // A `.graph` value of the sync face's: made once for the resolve, as an async one.
            if registration.sharesValues, registration.scope == .graph, let shared = frames.shared,
                let request = try graphRequest(registration, in: shared, after: frames)
            {
                guard case .apart(.share(let creation, _)) = request else { return request }
                ObservedRequest.noteMade()
                do {
                    return .ready(try core.makeGraphValue(registration, as: creation, in: shared, after: frames.keys))
                } catch {
                    throw error.after(frames.keys)
                }
            }
            // Where another thread is creating the value, the core hands its end back to await,
            // instead of sleeping on a thread of the cooperative pool.
            let context = ResolutionContext.current
            context.awaitsCreations = true
            defer { context.endAwaitingCreations() }
            let value: Any?
            do {
                value = try ObservedRequest.noting { () throws(InjectionError) in
                    try core.produce(registration, heldBy: holder, keptBy: keeper)
                }
            } catch {
                throw error.after(frames.keys)
            }
            if let end = context.handedBack { return .apart(.awaitThread(end)) }
            return .ready(value)
        }
        guard registration.scope.isKept else { return nil }
        try AsyncResolutionContext.checkNotResolving(registration, in: frames)
        if registration.isScoped { return try scopedRequest(registration, keptBy: keeper, after: frames) }
        do {
            return try AsyncSingletonCreation.request(
                of: registration, heldBy: holder, keptBy: keeper, builtBy: face(of: keeper), frames: frames)
        } catch {
            throw core.explained(error, building: registration, keptBy: keeper)
        }
    }

    /// What a request of `registration`, a `.graph` one, finds in the resolve `shared` it is
    /// part of: the value, another task's creation of it to await (the resolve's child tasks
    /// may ask at once), or one for this task to run. Made once per resolve, as a singleton is
    /// once per keeper, through the same rendezvous. `nil` once the resolve has ended.
    private nonisolated func graphRequest(
        _ registration: Registration,
        in shared: AsyncResolutionContext.Resolve,
        after frames: AsyncResolutionContext.Frames
    ) throws(InjectionError) -> AsyncSingletonCreation.Request? {
        // Before a wait: a run inside this value's own creation waits for no one.
        try AsyncResolutionContext.checkNotResolving(registration, in: frames)
        switch shared.claim(registration, builtBy: core) {
        case nil: return nil
        case .shared(let value)?: return .ready(value)
        case .running(let creation)?: return .apart(.waitShared(creation))
        case .claimed(let creation)?: return .apart(.share(creation, in: shared))
        }
    }

    /// Runs `registration`'s async factory in this task as `creation`, which this task claimed
    /// in the resolve `shared`, and hands the outcome to the resolve's other requests that await it.
    private nonisolated func runShared(
        _ registration: Registration,
        as creation: AsyncSingletonCreation,
        in shared: AsyncResolutionContext.Resolve,
        after frames: AsyncResolutionContext.Frames
    ) async throws(InjectionError) -> any Sendable {
        // Bound, as a creation's run is: a task its factory starts, resolving the value through
        // a captured injector, finds the run in its path (a cycle), not a creation to wait for.
        let (inside, run, _) = frames.appending(registration, creation: creation.number)
        let outcome = await outcome(ofRunning: registration, frames: inside)
        inside.end(run)
        shared.endCreation(creation, of: registration, builtBy: core)
        creation.finish(outcome)
        return try outcome.get()
    }

    /// How many resolves wait for the running creation of `type` under `name` kept here (for tests).
    func waitersForCreation<T>(of type: T.Type, name: String? = nil) -> Int {
        guard case .factory(let registration, _)? = core.lookup(DependencyKey(type, name: name))?.entry else {
            return 0
        }
        if let creation = AsyncSingletonCreation.running(registration, keptBy: core) { return creation.waiterCount }
        // A thread's creation (a synchronous factory), a singleton's or this scope's scoped value's.
        if let end = SingletonCreation.shared.awaitedEnd(of: SingletonCreation.Key(registration, keptBy: core)) {
            return end.waiterCount
        }
        return core.keptValues?.withLock { $0.awaited(registration) }?.waiterCount ?? 0
    }

    /// Runs a transient's async factory in the current task, after `frames` (checked for a
    /// cycle); `resolverTask` as for `resolve(_:as:observed:after:resolverTask:ifAbsent:)`.
    /// Always inlined, as `run` is (see there).
    #if compiler(>=6.3)
        @inline(always)
    #else
        @inline(__always)
    #endif
    nonisolated func runTransient(
        _ registration: Registration,
        after frames: AsyncResolutionContext.Frames,
        resolverTask: UInt? = nil,
        arguments: Any = ()
    ) async throws(InjectionError) -> any Sendable {
        try AsyncResolutionContext.checkNotResolving(registration, in: frames)
        // A value cached by argument is a creation other tasks may wait for: the wait graph
        // knows it by the creation this run is part of, or, outside any, by this run's number.
        let creation = registration.caching != nil && frames.innermostCreation == nil ? CreationOrder.next() : nil
        // Asked for through a run's resolver in the task that run binds for, it binds nothing
        // if it can (see `run`); a value cached by argument is bound as a creation is.
        let (inside, run, unbound) = frames.appending(
            registration, creation: creation, unboundIn: registration.caching == nil ? resolverTask : nil)
        defer { inside.end(run) }
        return try await self.run(
            registration, frames: inside, unboundIn: unbound ? resolverTask : nil, arguments: arguments)
    }

    /// Runs `registration`'s async factory with this injector as `current`, after `frames`,
    /// handing it a resolver of the run. A wrapper that fails meanwhile fails the run (see
    /// `AsyncResolutionContext.Frames.capture`).
    ///
    /// The run binds its frames and `current` for the task (what a factory's captured
    /// injector, and the wrappers of what it builds, read), unless it is `unboundIn` this
    /// task: a transient's asked for through the resolver of a run in progress, in that run's
    /// task, whose path travels in its own resolver, and whose resolve keeps its frames for
    /// this task (`Resolve.unboundFrames`); the bindings of the run it works for stand.
    /// Binding cost more than the rest of a run.
    ///
    /// `@inline(always)`, not `__always`: the optimiser takes that for a hint and declines it,
    /// leaving an async call (a frame and an executor check) where it runs. `always` is Swift
    /// 6.3's (SE-0496), an error before it: an older compiler keeps the hint.
    #if compiler(>=6.3)
        @inline(always)
    #else
        @inline(__always)
    #endif
    nonisolated func run(
        _ registration: Registration,
        frames: AsyncResolutionContext.Frames,
        unboundIn task: UInt? = nil,
        arguments: Any = ()
    ) async throws(InjectionError) -> any Sendable {
        guard let maker = Self.asyncFactory(of: registration) else {
            throw .factoryFailed(registration.key, path: frames.keys, underlying: RequiresAwait())
        }
        AsyncWrapperCapture.builders.increment()
        defer { AsyncWrapperCapture.builders.decrement() }
        let unbound = task != nil
        let resolver = AsyncResolver(self, frames: frames, task: task ?? CurrentTask.address)
        do {
            // Inside a run of this face (a dependency's creation), only the frames change: the
            // factory is called straight from their binding, with no frames for `running`'s
            // check and closure (two async calls per level of a chain of creations).
            let value: any Sendable
            if unbound {
                value = try await maker.makeValue(resolver, arguments: arguments)
            } else {
                let bound = AsyncResolutionContext.bound  // read only by a run that binds
                // Bound again with its face moved, not copied, into the new binding: a copy
                // retains and releases its two references.
                value =
                    Self.isCurrent(self, running: bound.face)
                    ? try await AsyncResolutionContext.$bound.withValue(
                        .init(frames: frames, face: (consume bound).face)
                    ) {
                        try await maker.makeValue(resolver, arguments: arguments)
                    }
                    : try await Self.running(self, frames: frames, bound: bound) {
                        try await maker.makeValue(resolver, arguments: arguments)
                    }
            }
            // Before the completion runs: it is for whole values only.
            if let failure = frames.takeCaptured() { throw failure.error(building: value, after: frames.keys) }
            let shared = registration.sharesValues ? frames.shared : nil
            let decorates = !registration.decoratesOwnValues && core.mayDecorate(registration.key)
            guard shared != nil || decorates else { return value }
            // A completion or a decorator: user code again, bound as the factory was.
            let valueType = maker.valueType
            let finish = { () async throws -> any Sendable in
                try await self.finish(
                    value, as: valueType, madeBy: registration, sharingIn: shared, decorating: decorates, resolver)
            }
            if unbound { return try await finish() }
            return try await Self.running(self, frames: frames, finish)
        } catch {
            throw Self.failure(error, of: registration, after: frames)
        }
    }

    /// `run(_:frames:unboundIn:arguments:)`'s outcome as a value, for a creation that hands it
    /// to the resolves that await it. A transient's run throws instead: a `Result` of an
    /// `InjectionError` is copied through its value witnesses.
    @inline(__always)
    nonisolated func outcome(
        ofRunning registration: Registration,
        frames: AsyncResolutionContext.Frames
    ) async -> AsyncSingletonCreation.Outcome {
        do {
            return .success(try await run(registration, frames: frames))
        } catch {
            return .failure(error)
        }
    }

    /// `made`, which `registration`'s factory has just made, decorated if `decorates`, and
    /// completed (shared meanwhile, decorated, in `shared`, the resolve's values, if it shares
    /// values): decorated first, so that a resolve of the key inside the completion gets the
    /// one decorated value, as on the sync face.
    private nonisolated func finish(
        _ made: any Sendable,
        as valueType: any Sendable.Type,
        madeBy registration: Registration,
        sharingIn shared: AsyncResolutionContext.Resolve?,
        decorating decorates: Bool,
        _ resolver: AsyncResolver
    ) async throws -> any Sendable {
        let frames = resolver.frames
        do {
            let value =
                decorates ? try await decorated(made, as: valueType, key: registration.key, frames: frames) : made
            guard let shared else { return value }
            do {
                try await complete(made, sharing: value, madeBy: registration, in: shared, resolver: resolver)
                if let failure = frames.takeCaptured() { throw failure.error(building: made, after: frames.keys) }
            } catch {
                shared.stopSharing(registration, builtBy: core)  // not whole: no later request gets it
                throw error
            }
            return value
        } catch {
            // Whole, and nothing keeps it: torn down, as on the sync face (`tearDownUnkept`).
            await core.tearDownUnkept(made, madeBy: registration)
            throw error
        }
    }

    /// `registration`'s async factory, to call with the run's arguments; `nil` for a synchronous
    /// one. Apart from `run(_:frames:unboundIn:arguments:)`, and the failure below too, so that
    /// the frame each level of a chain of creations keeps stays small.
    @inline(never)
    private nonisolated static func asyncFactory(of registration: Registration) -> (any AsyncMaking)? {
        switch registration.factory {
        case .async(let maker): maker
        case .withArguments(_, _, .async(let maker)): maker
        case .plain, .withArguments(_, _, .sync): nil
        }
    }

    /// What a run of `registration` after `frames` fails with when its factory throws `error`.
    @inline(never)
    private nonisolated static func failure(
        _ error: any Error,
        of registration: Registration,
        after frames: AsyncResolutionContext.Frames
    ) -> InjectionError {
        (error as? InjectionError) ?? .factoryFailed(registration.key, path: frames.keys, underlying: error)
    }

    /// `body` (a factory run) with `face` as both faces' `current`: the wrappers (`@Inject`,
    /// …) of what a factory builds read `DependencyInjector.current`, and resolve from this
    /// face, then from the `DependencyInjector.current` bound outside (see `ActorFaceCurrent`).
    /// Inside a factory this face runs, they are bound already (unless the factory bound
    /// others): no new bindings, which cost more than the rest of a run's bookkeeping, and the
    /// injector bound outside the outermost factory stays the one wrappers fall back to.
    ///
    /// In the caller's isolation (`withScope`'s body keeps its actor), with `frames` bound for
    /// a run (`nil`: the frames bound stay), in the one binding that says which face's factory
    /// runs. `bound`: what the task binds now, if the caller has read it (a run has: it is not
    /// read twice).
    static func running<Value>(
        _ face: AsyncDependencyInjector,
        frames: AsyncResolutionContext.Frames? = nil,
        bound: AsyncResolutionContext.Bound? = nil,
        isolation: isolated (any Actor)? = #isolation,
        _ body: () async throws -> Value
    ) async throws -> Value {
        let core = face.core
        let (bound, boundCore) = (bound ?? AsyncResolutionContext.bound, DependencyInjector.current)
        if isCurrent(face, running: bound.face) {
            guard let frames else { return try await body() }
            return try await AsyncResolutionContext.$bound.withValue(.init(frames: frames, face: bound.face)) {
                try await body()
            }
        }
        // Bound outside every face: inside another face's run (whose registry is bound), the
        // injector bound outside that one; its registry is no fallback for this face's values.
        let outsideFaces = bound.face.map { boundCore === $0.core ? $0.outside : boundCore } ?? boundCore
        let outside = ActorFaceCurrent(core: core, outside: outsideFaces)
        return try await AsyncResolutionContext.$bound.withValue(.init(frames: frames ?? bound.frames, face: outside)) {
            try await $current.withValue(face) {
                try await DependencyInjector.$current.withValue(core, operation: body)
            }
        }
    }

    /// Whether `face` is both faces' `current` already (see `running(_:frames:bound:isolation:_:)`), `running` being
    /// the actor face's run bound in this task: a run of one of its factories is in progress
    /// in this task, and the factory bound no other.
    static func isCurrent(_ face: AsyncDependencyInjector, running: ActorFaceCurrent?) -> Bool {
        // Compared in place: bound to a name, the face bound was copied (its two references
        // retained and released) for one comparison.
        guard running?.core === face.core else { return false }
        return DependencyInjector.current === face.core && current === face
    }

    /// Shares `value` (`made`, decorated) with the rest of the resolve, and runs
    /// `registration`'s completion on `made`.
    private nonisolated func complete(
        _ made: any Sendable,
        sharing value: any Sendable,
        madeBy registration: Registration,
        in shared: AsyncResolutionContext.Resolve,
        resolver: AsyncResolver
    ) async throws {
        shared.share(value, madeBy: registration, builtBy: core)
        switch registration.completion {
        case nil: return
        case .async(let complete)?: try await complete(resolver, made)
        case .sync(let complete)?: try complete(core, made)
        }
        // The value is kept by its scope from now on, or (a transient) is the caller's alone.
        if registration.scope != .graph { shared.stopSharing(registration, builtBy: core) }
    }
}
