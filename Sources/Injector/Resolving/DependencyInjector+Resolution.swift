extension DependencyInjector {
    /// Returns the value registered for `type` under `name`, creating it if its scope says so.
    ///
    /// ```swift
    /// let payments = try injector.resolve(PaymentService.self)
    /// let url: String = try injector.resolve(name: "baseURL")
    /// ```
    ///
    /// The injector looks in its own registrations first, then in its ancestors'.
    ///
    /// - Throws: ``InjectionError/notRegistered(_:path:suggestions:)`` when nothing is
    ///   registered, ``InjectionError/circularDependency(path:)`` when the factories form a
    ///   cycle, ``InjectionError/factoryFailed(_:path:underlying:)`` when a factory throws.
    @inlinable
    public func resolve<T>(_ type: T.Type = T.self, name: String? = nil) throws(InjectionError) -> T {
        // The hot path: a ready value of this injector's own, or a transient's factory, from
        // its published table, with no lock (see `PublishedTable`). Inlined, so that `T` is known
        // where the value is copied out.
        if let found = ready.slot(for: ObjectIdentifier(T.self), name: name) {
            return try found.value(as: T.self, name: name, in: self)
        }
        return try resolveLocked(type, name: name)
    }

    /// `resolve(_:name:)` for an `@Inject` wrapper: the same, but a strict scope's refusal of
    /// the property's own key in an object made by hand is left to the wrapper to record, at
    /// the property's declaration (see `refusal`). The hot path as it is: no refusal there.
    @inlinable
    func resolveForWrapper<T>(_ type: T.Type, name: String?) throws(InjectionError) -> T {
        if let found = ready.slot(for: ObjectIdentifier(T.self), name: name) {
            return try found.value(as: T.self, name: name, in: self)
        }
        return try resolveLockedForWrapper(type, name: name)
    }

    /// The slot of `type` under `name` in the published table, for `@LazyInject`'s first
    /// read, which holds this injector in a property: read through the injector, which the
    /// property keeps alive, the table is not retained for the lookup, as it was when read
    /// through the property (two atomic operations).
    @usableFromInline
    @inline(never)
    func publishedSlot<T>(for type: T.Type, name: String?) -> ProtectedSlot? {
        ready.slot(for: ObjectIdentifier(T.self), name: name)
    }

    /// `resolveLocked` for `resolveForWrapper`, marked on the thread when no builder runs.
    @usableFromInline
    func resolveLockedForWrapper<T>(_ type: T.Type, name: String?) throws(InjectionError) -> T {
        let context = ResolutionContext.current
        // A builder throws it: this thread's, or an async one (`make`'s, the actor face's) in this task.
        if context.isBuilding || AsyncWrapperCapture.isBuilding { return try resolveLocked(type, name: name) }
        context.handMadeWrapperResolves += 1
        defer { context.handMadeWrapperResolves -= 1 }
        return try resolveLocked(type, name: name)
    }

    /// `resolve(_:name:)` where no published table has the value: under the lock, the walk,
    /// the factories; while resolves are observed, every resolve (`instrumentedResolve`).
    @usableFromInline
    func resolveLocked<T>(_ type: T.Type, name: String?) throws(InjectionError) -> T {
        // A ready value is copied out of its slot under the lock, straight into the result. No
        // `Optional<T>` (in unspecialised generic code it looks up its metadata on every call,
        // costlier than the lookup), hence the lock taken and released by hand. Every level of
        // a chain of factories runs through here, so the rest is in `@inline(never)`
        // functions, off the stack at each level ("for the stack" below).
        let key = DependencyKey(type, name: name)
        // This injector first, outside the walk: the common case retains no injector.
        var miss = Miss.absent
        let registry = self.registry.lock()
        let instrumented = registry.pointee.diagnostics.instrumentation != nil
        if !instrumented, let slot = registry.pointee.readySlot(key, miss: &miss) {
            defer { self.registry.unlock() }
            return try Registry.ReadySlot.value(of: slot, as: T.self, key: key)
        }
        self.registry.unlock()

        // A factory of this injector's own runs without the walk.
        if case .pending(let registration) = miss {
            if let typed = registration.typedTransient(making: T.self) {
                return try make(typed)
            }
            if !registration.isTransient, !registration.isScoped {
                return try resolve(key, as: T.self, producing: registration)
            }
        }
        return try resolve(key, as: T.self, after: miss, instrumented: instrumented) { key throws(InjectionError) in
            try unregistered(key, as: T.self)
        }
    }

    /// The rest of a resolve whose own lookup found `miss` (`nil`: none made yet): the
    /// observer, the walk, the factories; what `ifAbsent` returns when no injector holds `key`.
    /// Apart from the hot path, for the stack.
    @inline(never)
    func resolve<T>(
        _ key: DependencyKey,
        as type: T.Type,
        after miss: Miss?,
        instrumented: Bool,
        ifAbsent: (DependencyKey) throws(InjectionError) -> T
    ) throws(InjectionError) -> T {
        if instrumented { return try instrumentedResolve(key, as: T.self, ifAbsent: ifAbsent) }
        var location = locate(key, after: miss)
        while true {
            switch consume location {
            case .ready(let slot):
                return try slot.value(as: T.self, key: key)
            case .absent:
                return try ifAbsent(key)
            case .refused(let key, let site):
                throw Self.refusal(
                    of: key, registeredAt: site, path: ResolutionContext.current.path + [key], resolvingFrom: self)
            case .pending(let registration, let holder, let keeper):
                if let typed = registration.typedTransient(making: T.self) {
                    return try make(typed)
                }
                if let value = try produce(registration, heldBy: holder, keptBy: keeper) {
                    return try Self.cast(value, to: T.self, key: key)
                }
                location = locate(key)  // replaced or removed while we waited: look again
            }
        }
    }

    /// The error for `key`, whose registration (made at `site`) a strict test scope refused,
    /// resolved from `injector` after `path`: recorded on the test too (the one that opened the
    /// scope, where the task binds no recorder; but not while `verify()` runs, which reports
    /// it), so that code which swallows the error does not hide it. The
    /// `@Inject` of an object made by hand that asked for `key` itself records it instead, at
    /// its declaration (see `WrapperFailure`).
    @inline(never)
    static func refusal(
        of key: DependencyKey,
        registeredAt site: RegistrationSite,
        path: [DependencyKey],
        resolvingFrom injector: DependencyInjector
    ) -> InjectionError {
        let error = InjectionError.notProvidedInTest(key, path: path, registeredAt: site)
        let context = ResolutionContext.current
        let isHandMadeWrappersOwn = path.count == 1 && context.handMadeWrapperResolves > 0
        if !isHandMadeWrappersOwn, Verification.wrapperFailures == nil {
            TestIssueRecorder.currentOrTest(of: injector)?.recordRefusal(error, registeredAt: site)
        }
        return error
    }

    /// What a resolve of unregistered `key` returns: a ``ProviderHandle``, or the error.
    func unregistered<T>(_ key: DependencyKey, as type: T.Type) throws(InjectionError) -> T {
        if let maker = T.self as? any ResolvableWithoutRegistration.Type,
            let made = maker.made(by: self, name: key.name) as? T
        {
            return made
        }
        // `T?` with no registration of its own: the `T` under that name, or `nil` without one.
        if let optional = T.self as? any OptionalResolvable.Type,
            let resolved = try optional.wrappedValue(from: self, name: key.name) as? T
        {
            return resolved
        }
        // In what the actor face's factory builds: the injector bound outside it, next.
        if let outside = outsideActorFace, outside.isRegistered(T.self, name: key.name) {
            return try outside.resolve(T.self, name: key.name)
        }
        let path = ResolutionContext.current.path
        throw .notRegistered(
            key, path: path + [key],
            suggestions: suggestions(for: key, as: T.self, after: path + AsyncResolutionContext.keys))
    }

    /// What a resolve of `T` under `name` would throw before any factory runs, or `nil` when it
    /// would find something to return or to run: for a `@LazyInject` property of an object a
    /// builder makes (see `LazyResolution`), checked without building anything, so that the
    /// property stays lazy and still breaks cycles. Asks what `resolve` asks: the walk (a strict
    /// test scope's refusal included), then `unregistered`'s answers without a registration.
    func failureBeforeRunning<T>(_ type: T.Type, name: String?) -> InjectionError? {
        let key = DependencyKey(type, name: name)
        switch locate(key) {
        case .ready:
            return nil  // unlocked as the location is dropped
        case .pending(let registration, _, let keeper):
            // What the read would refuse before running the factory: an async one, which a
            // synchronous read cannot run; one that takes arguments, which a property has none
            // of; a scoped one, with no opened scope (or a closed one) to keep its value.
            let path = ResolutionContext.current.path + [key]
            if registration.isAsyncFactory { return .factoryFailed(key, path: path, underlying: RequiresAwait()) }
            if case .withArguments = registration.factory {
                return .mismatchedArguments(key, path: path, expected: registration.argumentTypes, given: [])
            }
            if registration.isScoped, !keeper.opensScope { return .outsideScope(key, path: path) }
            // What a closed injector (or scope) would keep, it refuses to make.
            guard registration.scope.isKept else { return nil }
            return keeper.registry.withLock(\.isClosed) ? .closed(key, path: path) : nil
        case .refused(let key, let site):
            // Recorded on the test now, as a resolve's refusal is: the code may swallow what `make` throws.
            return Self.refusal(
                of: key, registeredAt: site, path: ResolutionContext.current.path + [key], resolvingFrom: self)
        case .absent:
            if T.self is any ResolvableWithoutRegistration.Type || T.self is any OptionalResolvable.Type {
                return nil
            }
            if let outside = outsideActorFace, outside.isRegistered(T.self, name: name) { return nil }
            let path = ResolutionContext.current.path
            return .notRegistered(
                key, path: path + [key],
                suggestions: suggestions(for: key, as: T.self, after: path + AsyncResolutionContext.keys))
        }
    }

    /// Where a resolve of `key` finds what to return: the walk from this injector through its
    /// ancestors, the one place that decides who holds a key and who keeps its singleton.
    /// `miss`: what a lookup in this injector has already found, if any.
    /// `base`: an ancestor whose registration of `key` (a collection's, by hand) the walk is to
    /// find past the ones below it (the collection's gatherings), as if they were not there.
    func locate(_ key: DependencyKey, after miss: Miss? = nil, startingAt base: DependencyInjector? = nil) -> Location {
        // The nearest injectors on the way that keep their own copies of inherited singletons,
        // and `.scoped` values (an opened scope).
        var keepers = Keepers()
        if base != nil {
            keepers.passOver(self)
        } else if let found = locate(key, in: self, after: miss, keepers: &keepers) {
            return found
        }
        // What is found above a test scope is the app's, seen from a test (see `TestScope`).
        var passed: PassedTestScopes?
        var below = self
        var ancestor = parent
        while let injector = ancestor {
            if let scope = below.testScope {
                passed = (passed ?? PassedTestScopes()).passing(below, scope: scope, for: key)
            }
            if let base, injector !== base {
                keepers.passOver(injector)
            } else if let found = locate(key, in: injector, after: nil, keepers: &keepers) {
                // What a test scope holds is a test's own (an outer scope's stand-ins).
                guard let passed, injector.testScope == nil else { return found }
                return passed.screen(found, key: key)
            }
            below = injector
            ancestor = injector.parent
        }
        return .absent
    }

    /// One step of the walk: what `injector` holds for `key`, or `nil` to go on to its parent,
    /// noting whether it is a keeper. A ready value comes back still locked in (see
    /// `LockedSlot`): copied out under the lock, as the hot path copies it.
    private func locate(
        _ key: DependencyKey,
        in injector: DependencyInjector,
        after miss: Miss?,
        keepers: inout Keepers
    ) -> Location? {
        // An opened scope keeps the scoped values of its own registrations too.
        keepers.notePassing(scopeOf: injector)
        var found = miss ?? .absent
        if miss == nil {
            let registry = injector.registry.lock()
            if let slot = registry.pointee.readySlot(key, miss: &found) {
                // A value that an ancestor created is not for a keeper below it.
                guard case .factory(let registration, _) = slot.takeUnretainedValue().entry,
                    let keeper = keepers.keeper(of: registration), keeper !== injector
                else {
                    return .ready(LockedSlot(slot, lockedIn: injector.registry))
                }
                injector.registry.unlock()
                return .pending(registration, heldBy: injector, keptBy: keeper)
            }
            injector.registry.unlock()
        }
        if case .pending(let registration) = found {
            // A scoped registration held below every opened scope is kept by the nearest above it.
            let keeper = keepers.keeper(of: registration) ?? (registration.isScoped ? injector.enclosingScope : nil)
            return .pending(registration, heldBy: injector, keptBy: keeper ?? injector)
        }
        keepers.notePassing(singletonsOf: injector)
        return nil
    }

    /// Whether a read of `key` that may find nothing (a key path's, whose default is no
    /// resolve) is reported: this injector is observed and something is registered.
    func observes(_ key: DependencyKey) -> Bool {
        registry.withLock { $0.diagnostics.instrumentation != nil } && lookup(key) != nil
    }

    /// The value for `key`, from this injector or an ancestor; `nil` when none holds it. A
    /// registered `nil` (of an optional type) is a value, `.some(nil)`: the resolve is of
    /// `Any`, not `Any?`, whose cast would turn that `nil` into the `nil` of "nothing here".
    func value(for key: DependencyKey, observed: Bool = false) throws(InjectionError) -> Any? {
        // A ready value or a transient, found as a resolve's hot path finds it: no lock, no walk.
        if let found = ready.slotUnlessObserved(for: key.typeID, name: key.name) {
            guard found.holdsAsyncFactory else { return try found.untypedValue(key: key, in: self) }
            _ = found.registration()  // withdrawn; the locked path says to await it
        }
        var isAbsent = false
        func absent(_: DependencyKey) -> Any {
            isAbsent = true
            return ()
        }
        let value =
            if observed, observes(key) {
                try instrumentedResolve(key, as: Any.self, ifAbsent: absent)
            } else {
                try resolve(key, as: Any.self, after: nil, instrumented: false, ifAbsent: absent)
            }
        guard isAbsent else { return value }
        // In what the actor face's factory builds (a key path's `@Inject`): the injector bound
        // outside it, as `unregistered` falls back for a typed resolve.
        guard AsyncWrapperCapture.mayRun, let outside = outsideActorFace else { return nil }
        return try outside.value(for: key, observed: observed)
    }

    /// Runs `registration`'s factory as its scope says: a transient is built by the injector
    /// that resolves it (so a child's overrides apply), a singleton or weak instance by
    /// `keeper` (the holder, or a descendant that keeps its own inherited singletons). `nil`
    /// when the registration was replaced or removed while we waited for it.
    @inline(__always)
    func produce(
        _ registration: Registration,
        heldBy holder: DependencyInjector,
        keptBy keeper: DependencyInjector
    ) throws(InjectionError) -> Any? {
        let context = ResolutionContext.current
        if let value = try context.madeEarlier(registration, builtBy: self) { return value }
        if case .withArguments(let types, _, _) = registration.factory {
            throw Self.takesArguments(registration, types, in: context)
        }
        switch registration.scope {
        case .transient, .graph:
            // A synchronous factory of an actor-face resolve asking for a graph value: the one
            // of the whole resolve, which the task's async factories share too.
            if registration.sharesValues, registration.scope == .graph, AsyncWrapperCapture.isBuilding,
                let value = try graphValueOfActorFaceResolve(registration, in: context)
            {
                return value
            }
            return try run(registration, in: context)
        case .scoped:
            // Kept by the opened scope, its own registrations' values too: in its one store,
            // where a resolve that finds the registration in a published table keeps it (see
            // `KeptValues`).
            try checkScoped(registration, keptBy: keeper, in: context)
            do {
                return try keeper.scopedValue(of: registration, heldBy: holder, context: context)
            } catch {
                throw explained(error, building: registration, keptBy: keeper)
            }
        case .singleton, .weak, .eagerSingleton, .named:
            // A copy kept below the holder is read without the process-wide creation lock.
            if keeper !== holder, let value = keeper.keptValue(of: registration) { return value }
            do {
                return try SingletonCreation.shared.value(
                    of: registration, heldBy: holder, keptBy: keeper, context: context)
            } catch {
                throw explained(error, building: registration, keptBy: keeper)
            }
        }
    }

    /// The value of `registration`, a `.graph` one, that the actor-face resolve this task runs
    /// shares (see `AsyncDependencyInjector.graphRequest`): taken, or made now by this thread
    /// and shared, so that the resolve's synchronous and async factories get one value. `nil`
    /// outside such a resolve, or while another of its tasks makes the value (a thread cannot
    /// await it): the caller makes one of its own.
    @inline(never)
    private func graphValueOfActorFaceResolve(_ registration: Registration, in context: ResolutionContext)
        throws(InjectionError) -> Any?
    {
        let frames = AsyncResolutionContext.frames
        guard let shared = frames.shared else { return nil }
        switch shared.claim(registration, builtBy: self) {
        case nil, .running?:
            return nil
        case .shared(let value)?:
            return value
        case .claimed(let creation)?:
            return try makeGraphValue(registration, as: creation, in: shared, after: frames.keys, context: context)
        }
    }

    /// Makes the value of `registration`, a synchronous `.graph` one, as `creation`, which this
    /// thread (or the actor face's request, see `AsyncDependencyInjector.graphRequest`) claimed
    /// in the actor-face resolve `shared`; shares it, and hands the outcome to the resolve's
    /// requests that await it, a failure with the actor face's path (`keys`) first. The caller
    /// adds that path to what it throws, on its way out.
    func makeGraphValue(
        _ registration: Registration,
        as creation: AsyncSingletonCreation,
        in shared: AsyncResolutionContext.Resolve,
        after keys: [DependencyKey],
        context: ResolutionContext = .current
    ) throws(InjectionError) -> any Sendable {
        do {
            try context.checkNotResolving(registration)  // as `produce` checks, for the actor face's request
            let value = SendableValue.assuming(try run(registration, in: context))
            shared.share(value, madeBy: registration, builtBy: self)
            shared.endCreation(creation, of: registration, builtBy: self)
            creation.finish(.success(value))
            return value
        } catch {
            shared.endCreation(creation, of: registration, builtBy: self)
            creation.finish(.failure(error.after(keys)))
            throw error
        }
    }

    /// A resolve of this injector's own uncreated singleton (or weak instance); apart, for the stack.
    @inline(never)
    private func resolve<T>(
        _ key: DependencyKey,
        as type: T.Type,
        producing registration: Registration
    ) throws(InjectionError) -> T {
        // `produce`'s singleton branch in place, two frames fewer per level (never with arguments).
        let context = ResolutionContext.current
        // A graph value, a completion, or a value the resolve may share: the general path.
        if registration.sharesValues || context.isSharing { return try resolve(key, as: T.self, sharing: registration) }
        try context.checkNotResolving(registration)
        let creation = SingletonCreation.shared
        switch try creation.start(of: registration, heldBy: self, keptBy: self, context: context) {
        case .ready(let value):
            return try Self.cast(value, to: T.self, key: key)
        case .create(let creationKey):
            var letGo: [PendingTeardown] = []
            defer { creation.finish(creationKey, tearingDown: letGo, for: self) }
            let value = try run(registration, in: context)
            letGo = try creation.keep(value, producedBy: registration, heldBy: self, keptBy: self)
            return try Self.cast(value, to: T.self, key: key)
        case .stale, .closed:  // `start` throws `closed`
            break
        }
        // Replaced or removed while we waited: the whole walk.
        return try resolve(key, as: T.self, after: nil, instrumented: false) { key throws(InjectionError) in
            try unregistered(key, as: T.self)
        }
    }

    /// A resolve of this injector's own `registration` through `produce`, which knows the
    /// values a resolve shares; apart, for the stack.
    @inline(never)
    private func resolve<T>(_ key: DependencyKey, as type: T.Type, sharing registration: Registration)
        throws(InjectionError) -> T
    {
        if let value = try produce(registration, heldBy: self, keptBy: self) {
            return try Self.cast(value, to: T.self, key: key)
        }
        // Replaced or removed while we waited: the whole walk.
        return try resolve(key, as: T.self, after: nil, instrumented: false) { key throws(InjectionError) in
            try unregistered(key, as: T.self)
        }
    }

    /// The error for resolving `registration`, which takes run-time arguments, without them.
    @inline(never)
    private static func takesArguments(
        _ registration: Registration,
        _ types: [any Any.Type],
        in context: ResolutionContext
    ) -> InjectionError {
        .mismatchedArguments(registration.key, path: context.path + [registration.key], expected: types, given: [])
    }

    /// What a published table holds for `T` under `name` besides a `ReadyValue<T>` (see
    /// `ProtectedSlot`): a value registered as a protocol, or a transient's registration (a
    /// scoped one goes to `scopedValue(found:as:key:)`),
    /// which is retained, the announcement in `hazard` (a record a `HazardGuard` handed over)
    /// withdrawn (a factory may register into
    /// this injector, whose writer waits for the readers of the old table), then run here.
    /// `make(_:)` in place, a frame fewer per level of a chain of transients.
    @usableFromInline
    func resolve<T>(
        found slot: Unmanaged<AnyObject>,
        transient: Unmanaged<Registration>?,
        hazard: UnsafeMutableRawPointer,
        as type: T.Type,
        name: String?
    ) throws(InjectionError) -> T {
        guard let transient, let registration = Registration.typedTransient(transient, making: T.self) else {
            return try resolve(
                found: slot, transient: transient, hazard: hazard, as: type, key: DependencyKey(type, name: name))
        }
        Hazards.withdraw(hazard)
        let bits = TypeFilter.bits(of: registration.key.typeID)
        if mayDecorate(bits: bits) { return try makeDecorated(registration, bits: bits) }
        let context = ResolutionContext.current
        try context.checkNotResolving(registration)
        let value = try run(registration, in: context, registration.make)
        try context.throwFailureOfLeftBuilder(building: value)
        return value
    }

    /// `resolve(found:transient:hazard:as:name:)` for a `T` that may not be the key's type:
    /// the value cast, or the transient made and cast.
    @inline(never)
    func resolve<T>(
        found slot: Unmanaged<AnyObject>,
        transient: Unmanaged<Registration>?,
        hazard: UnsafeMutableRawPointer,
        as type: T.Type,
        key: DependencyKey
    ) throws(InjectionError) -> T {
        guard let transient else {
            defer { Hazards.withdraw(hazard) }
            return try Registry.ReadySlot.value(
                of: Unmanaged<Registry.ReadySlot>.fromOpaque(slot.toOpaque()), as: type, key: key)
        }
        let registration = transient.takeUnretainedValue()
        Hazards.withdraw(hazard)
        if registration.isScoped { return try scopedValue(found: registration, as: T.self, key: key) }
        if let typed = registration.typed(making: T.self) { return try make(typed) }
        let context = ResolutionContext.current
        try context.checkNotResolving(registration)
        return try Self.cast(run(registration, in: context), to: T.self, key: key)
    }
}

extension DependencyInjector {
    /// The nearest opened scope above this injector, if any.
    var enclosingScope: DependencyInjector? {
        sequence(first: self, next: \.parent).dropFirst().first { $0.opensScope }
    }
}

/// The keepers a walk has passed (see `DependencyInjector.locate(_:after:)`): the nearest
/// injector that keeps its own copies of inherited singletons, and the nearest opened scope.
struct Keepers {
    var singletons: DependencyInjector?
    var scope: DependencyInjector?

    /// Who keeps `registration`'s value for the resolve (the holder too, for a scoped one an
    /// opened scope holds), or `nil`: its holder, in its registry.
    func keeper(of registration: Registration) -> DependencyInjector? {
        registration.isScoped ? scope : singletons
    }

    /// Notes `injector`, which the walk reaches, if it is the first opened scope on the way.
    @inline(__always)
    mutating func notePassing(scopeOf injector: DependencyInjector) {
        if scope == nil, injector.opensScope { scope = injector }
    }

    /// Notes `injector`, which the walk leaves without finding the key, if it is the first on
    /// the way that keeps its own copies of inherited singletons.
    @inline(__always)
    mutating func notePassing(singletonsOf injector: DependencyInjector) {
        if singletons == nil, injector.keepsOwnSingletons { singletons = injector }
    }

    /// Notes `injector`, which the walk passes over without a look (see `locate(_:after:startingAt:)`).
    mutating func passOver(_ injector: DependencyInjector) {
        notePassing(scopeOf: injector)
        notePassing(singletonsOf: injector)
    }
}

/// What the walk for a key found, and where (see `DependencyInjector.locate(_:after:)`).
enum Location: ~Copyable {
    /// A value to return: a registered instance or a singleton already created, in its
    /// injector's table, whose lock is held until the value is copied out (or this is dropped).
    case ready(LockedSlot)
    /// A factory to run, the injector that holds it, and the one that keeps a singleton's
    /// value (the holder, or a descendant that keeps its own copies).
    case pending(Registration, heldBy: DependencyInjector, keptBy: DependencyInjector)
    /// No injector on the way holds the key.
    case absent
    /// A strict test scope on the way refused the registration above it, made at the site
    /// (see `TestScope`).
    case refused(DependencyKey, registeredAt: RegistrationSite)
}
