extension AsyncDependencyInjector {
    /// Returns the value registered for `type` under `name`, creating it if its scope says so.
    ///
    /// ```swift
    /// let users = try await injector.resolve(UserRepository.self)
    /// let url: String = try await injector.resolve(name: "baseURL")
    /// ```
    ///
    /// The injector looks in its own registrations first, then in its ancestors'. While a
    /// singleton is being created, every resolve of it awaits that one creation.
    ///
    /// - Throws: ``InjectionError/notRegistered(_:path:suggestions:)`` when nothing is
    ///   registered, ``InjectionError/circularDependency(path:)`` when the factories form a
    ///   cycle, ``InjectionError/factoryFailed(_:path:underlying:)`` when a factory throws, or
    ///   with a `CancellationError` when this task is cancelled while it waits for a singleton.
    ///
    /// A ready value (a registered instance or a singleton already created in this injector)
    /// is read without entering the actor: one lock, no hop.
    public nonisolated func resolve<T: Sendable>(
        _ type: T.Type = T.self,
        name: String? = nil
    ) async throws(InjectionError) -> T {
        let key = DependencyKey(type, name: name)
        if let value = ready.withLock({ $0[key] }), let typed = value as? T { return typed }
        return try await resolveIsolated(key, as: type)
    }

    /// ``resolve(_:name:)`` on the actor: lookups through ancestors, factories, creations.
    private func resolveIsolated<T: Sendable>(_ key: DependencyKey, as type: T.Type) async throws(InjectionError) -> T {
        guard let value = try await value(for: key) else {
            let suggestions = await suggestions(for: key, as: T.self)
            throw .notRegistered(key, path: AsyncResolutionPath.keys + [key], suggestions: suggestions)
        }
        guard let typed = value as? T else {
            // Unreachable while keys are type identities; reported rather than trapped.
            throw .factoryFailed(
                key,
                path: AsyncResolutionPath.keys + [key],
                underlying: UnexpectedValueType(expected: key.type, actual: Swift.type(of: value))
            )
        }
        return typed
    }

    /// The value for `key`, from this injector or the nearest ancestor that holds it; `nil`
    /// when none does.
    func value(for key: DependencyKey) async throws(InjectionError) -> (any Sendable)? {
        while true {
            switch await lookUp(key) {
            case nil:
                return nil
            case .value(let value):
                return value
            case .factory(let registration, _) where registration.scope == .transient:
                // Built by the resolving injector, so a child's overrides apply.
                return try await runInCurrentTask(registration)
            case .factory(let registration, let owner):
                // Created and kept by the injector that holds the registration. `nil` means the
                // registration was replaced or removed while we looked: look again.
                if let value = try await owner.sharedValue(of: registration) { return value }
            }
        }
    }

    /// What this injector or its nearest ancestor holds for `key`.
    private func lookUp(_ key: DependencyKey) async -> AsyncLookup? {
        if let found = localLookUp(key) { return found }
        var ancestor = parent
        while let current = ancestor {
            if let found = await current.localLookUp(key) { return found }
            ancestor = current.parent
        }
        return nil
    }

    /// What this injector itself holds for `key`.
    func localLookUp(_ key: DependencyKey) -> AsyncLookup? {
        switch entries[key] {
        case nil:
            return nil
        case .instance(let value):
            return .value(value)
        case .factory(let registration, let cache):
            if let value = cache.value(reloadedBy: registration) { return .value(value) }
            return .factory(registration, owner: self)
        }
    }

    /// The value of this injector's singleton or weak `registration`: the cached one, or the
    /// one its creation produces (started now unless one is running). `nil` when
    /// `registration` is no longer the one stored under its key.
    func sharedValue(of registration: AsyncRegistration) async throws(InjectionError) -> (any Sendable)? {
        guard case .factory(let current, let cache) = entries[registration.key], current === registration else {
            return nil
        }
        if let value = cache.value(reloadedBy: registration) { return value }
        let frames = AsyncResolutionPath.frames
        if frames.contains(registration) {
            throw .circularDependency(path: frames.keys + [registration.key])
        }
        let creation =
            inFlight[ObjectIdentifier(registration)] ?? startCreation(of: registration, requestedFrom: frames)
        return try await creation.value(waitingFrom: frames)
    }

    /// Starts running `registration`'s factory in a task that belongs to this injector.
    ///
    /// The task copies the first requester's task-locals, so the creation's path continues the
    /// requester's (errors show the whole chain, and a cycle back into it is found), but it is
    /// not cancelled with the requester.
    private func startCreation(
        of registration: AsyncRegistration,
        requestedFrom frames: AsyncResolutionPath.Frames
    ) -> AsyncCreation {
        let creation = AsyncCreation(registration: registration)
        inFlight[ObjectIdentifier(registration)] = creation
        let frames = frames.appending(AsyncResolutionPath.Frame(registration: registration, creation: creation))
        Task {
            let outcome = await run(registration, frames: frames)
            finish(creation, with: outcome)
        }
        return creation
    }

    /// Ends `creation`: keeps its value as its scope says (if its registration is still the
    /// one stored), then hands the outcome to everyone waiting.
    private func finish(_ creation: AsyncCreation, with outcome: AsyncCreation.Outcome) {
        let registration = creation.registration
        if inFlight[ObjectIdentifier(registration)] === creation {
            inFlight[ObjectIdentifier(registration)] = nil
        }
        if case .success(let value) = outcome,
            case .factory(let current, _) = entries[registration.key], current === registration
        {
            switch registration.scope {
            case .transient:
                break
            case .singleton, .eagerSingleton:
                setEntry(.factory(registration, .strong(value)), for: registration.key)
            case .weak:
                // Only a class instance can be held weakly; anything else is made anew each time.
                if type(of: value) is AnyObject.Type {
                    setEntry(
                        .factory(registration, .weak(AsyncWeakReference(object: value as AnyObject))),
                        for: registration.key)
                }
            }
        }
        creation.finish(outcome)
    }

    /// How many resolves are waiting for the creation of `type` under `name` that is running
    /// now; tests use it to know that a waiter has arrived without sleeping.
    func waitersForCreation<T>(of type: T.Type, name: String? = nil) -> Int {
        guard case .factory(let registration, _) = entries[DependencyKey(type, name: name)] else { return 0 }
        return inFlight[ObjectIdentifier(registration)]?.waiterCount ?? 0
    }

    /// Runs a transient `registration`'s factory in the current task, with this injector.
    private func runInCurrentTask(_ registration: AsyncRegistration) async throws(InjectionError) -> any Sendable {
        let frames = AsyncResolutionPath.frames
        if frames.contains(registration) {
            throw .circularDependency(path: frames.keys + [registration.key])
        }
        let frame = AsyncResolutionPath.Frame(registration: registration, creation: nil)
        return try await run(registration, frames: frames.appending(frame)).get()
    }

    /// Runs `registration`'s factory with this injector, which is `current` meanwhile, and with
    /// `frames` as the resolutions in progress.
    private nonisolated func run(
        _ registration: AsyncRegistration,
        frames: AsyncResolutionPath.Frames
    ) async -> AsyncCreation.Outcome {
        do {
            let value = try await AsyncResolutionPath.$frames.withValue(frames) {
                try await Self.$current.withValue(self) { try await registration.make(self) }
            }
            return .success(value)
        } catch let error as InjectionError {
            return .failure(error)
        } catch {
            return .failure(
                .factoryFailed(registration.key, path: frames.keys, underlying: error))
        }
    }
}
