extension DependencyInjector {
    /// `produce` and `run` for a transient whose factory makes a `T`, never boxed in an `Any`
    /// (`Registration.typedTransient(making:)`), wrapped by its decorators if it has any here.
    func make<T>(_ registration: TypedRegistration<T>) throws(InjectionError) -> T {
        let bits = TypeFilter.bits(of: registration.key.typeID)
        if mayDecorate(bits: bits) { return try makeDecorated(registration, bits: bits) }
        let context = ResolutionContext.current
        try context.checkNotResolving(registration)
        let value = try run(registration, in: context, registration.make)
        try context.throwFailureOfLeftBuilder(building: value)
        return value
    }

    /// `make(_:)` for a transient whose key may have decorators here: they wrap the value in
    /// the factory's run (a decorator's failure is the factory's), called with the `T` as it
    /// is. When one injector of the chain decorates the key, its decorators, composed, make
    /// the value the caller gets, as the factory would: nothing more is copied. Apart, so that
    /// an undecorated run holds none of it. `bits`: the key's in the filters, as the caller
    /// found them.
    @inline(never)
    func makeDecorated<T>(_ registration: TypedRegistration<T>, bits: UInt64) throws(InjectionError) -> T {
        let context = ResolutionContext.current
        try context.checkNotResolving(registration)
        let wrapping = wrapping(of: registration.key, bits: bits)
        let value = try runDecorated(registration, wrapping, in: context)
        try context.throwFailureOfLeftBuilder(building: value)
        return value
    }

    /// `run(_:in:_:)` of `makeDecorated(_:bits:)`. A run that binds this injector as `current`
    /// calls the factory and the decorators in the binding's own closure
    /// (`madeDecoratedAsCurrent`), a frame fewer than a closure handed to `runAsCurrent(_:)`.
    @inline(__always)
    private func runDecorated<T>(
        _ registration: TypedRegistration<T>,
        _ wrapping: Wrapping,
        in context: ResolutionContext
    ) throws(InjectionError) -> T {
        noteFactoryRun(of: registration, in: context)
        try context.enter(registration)
        defer { context.leave() }
        do {
            if Self.current === self { return try madeDecoratedInPlace(registration, wrapping, in: context) }
            return try madeDecoratedAsCurrent(registration, wrapping, in: context)
        } catch {
            throw Self.failure(error, of: registration, in: context)
        }
    }

    /// `madeDecorated(_:_:in:)` with this injector bound as `current`. Inlined into
    /// `makeDecorated(_:bits:)`, unlike `runAsCurrent(_:)`: a frame fewer for a decorated
    /// resolve from outside any factory, for a larger `makeDecorated` frame at each decorated
    /// level of a chain (a chain on a small stack goes about a tenth less deep).
    @inline(__always)
    private func madeDecoratedAsCurrent<T>(
        _ registration: TypedRegistration<T>,
        _ wrapping: Wrapping,
        in context: ResolutionContext
    ) throws -> T {
        try Self.$current.withValue(self) { try madeDecorated(registration, wrapping, in: context) }
    }

    /// `madeDecorated(_:_:in:)` in a run that finds this injector `current` (a dependency of
    /// another of its factories). Apart: inlined into `makeDecorated(_:bits:)`, its buffer for
    /// the undecorated value (sized at run time: `T` is generic there) was made by every run,
    /// also one that binds `current`.
    @inline(never)
    private func madeDecoratedInPlace<T>(
        _ registration: TypedRegistration<T>,
        _ wrapping: Wrapping,
        in context: ResolutionContext
    ) throws -> T {
        try madeDecorated(registration, wrapping, in: context)
    }

    /// A value of `registration`, made by this injector, as `wrapping` decorates it: by one
    /// injector's decorators composed, called with the value as the factory made it, or else
    /// by `makeWrapped(_:in:)`.
    @inline(__always)
    private func madeDecorated<T>(
        _ registration: TypedRegistration<T>,
        _ wrapping: Wrapping,
        in context: ResolutionContext
    ) throws -> T {
        guard case .composed(let decorator) = wrapping else { return try makeWrapped(registration, in: context) }
        let made = try registration.make(self)
        try context.throwCapturedFailure(building: made)  // only whole values are decorated
        // Alive while the injector that holds it is, this one or an ancestor.
        return try decorator._withUnsafeGuaranteedRef { decorator in
            try decorator.decorate(made, madeBy: self, key: registration.key)
        }
    }

    /// The value of `registration`, made by this injector in `makeDecorated(_:bits:)`'s run,
    /// when several injectors' decorators wrap the key, or one that is async, or none (the
    /// filters' "maybe" was for another type): `wrap`, ancestors' first. Apart, so that the
    /// run of one injector's decorators holds none of it.
    @inline(never)
    private func makeWrapped<T>(_ registration: TypedRegistration<T>, in context: ResolutionContext) throws -> T {
        var value = try registration.make(self)
        try wrap(
            &value, key: registration.key, bits: TypeFilter.bits(of: registration.key.typeID), madeBy: self,
            in: context)
        return value
    }

    /// Runs `registration`'s factory with this injector, which is `current` meanwhile so that
    /// wrappers in the objects it builds resolve from it. A wrapper that fails meanwhile fails
    /// the run (see `ResolutionContext.capture`): nothing half-built is returned or kept.
    ///
    /// `run(_:in:_:)` written out, the common factory called in place rather than through a
    /// closure or `build`: one frame fewer at every level of a chain of singletons.
    func run(_ registration: Registration, in context: ResolutionContext, arguments: Any = ()) throws(InjectionError)
        -> Any
    {
        noteFactoryRun(of: registration, in: context)
        try context.enter(registration)
        defer { context.leave() }
        do {
            if registration.sharesValues { return try buildSharing(registration, arguments: arguments, in: context) }
            let value: Any
            // Read once: a task-local read costs more than the rest of this bookkeeping.
            let isCurrent = Self.current === self
            if case .plain = registration.factory, isCurrent {
                value = try registration.makeAny(with: self)
            } else {
                value = try build(registration, arguments: arguments, isCurrent: isCurrent)
            }
            try context.throwCapturedFailure(building: value)
            return try decoratedIfAny(consume value, madeFor: registration, in: context)
        } catch {
            throw Self.failure(error, of: registration, in: context)
        }
    }

    /// Builds a value that the rest of the resolve shares, decorated if its key has decorators
    /// here, and runs `registration`'s completion on the value it made (with this injector as
    /// `current`); apart, for the stack. Decorated before the completion runs, so that a resolve
    /// of the key inside it gets the one decorated value, as every other resolve does.
    @inline(never)
    private func buildSharing(
        _ registration: Registration,
        arguments: Any,
        in context: ResolutionContext
    ) throws -> Any {
        let made = try build(registration, arguments: arguments, isCurrent: Self.current === self)
        // Before the completion runs: it is for whole values only.
        try context.throwCapturedFailure(building: made)
        do {
            return try decoratedAndCompleted(made, madeBy: registration, in: context)
        } catch {
            tearDownUnkept(made, madeBy: registration)  // whole, and nothing keeps it
            throw error
        }
    }

    /// `made`, which `registration`'s factory has just made, decorated (shared meanwhile with
    /// the rest of the resolve), after its completion has run.
    private func decoratedAndCompleted(
        _ made: Any,
        madeBy registration: Registration,
        in context: ResolutionContext
    ) throws -> Any {
        let decorates = !registration.decoratesOwnValues && mayDecorate(registration.key)
        let value = decorates ? try decorated(made, key: registration.key, in: context) : made
        context.share(value, madeBy: registration, builtBy: self)
        var completed = false
        defer {
            // The value is kept by its scope from now on, or (a transient) is the caller's
            // alone; a graph value stays shared with the rest of the resolve, if it is whole.
            if registration.scope != .graph || !completed { context.stopSharing(registration, builtBy: self) }
        }
        switch registration.completion {
        case nil:
            break
        case .sync(let complete)?:
            if Self.current === self {
                try complete(self, made)
            } else {
                try Self.$current.withValue(self) { try complete(self, made) }
            }
        case .async?:
            throw RequiresAwait()
        }
        try context.throwCapturedFailure(building: made)
        completed = true
        return value
    }

    /// `run(_:in:arguments:)` with `make` as the factory; inlined, one frame fewer per level.
    /// The caller checks the wrappers (`throwFailureOfLeftBuilder`) once it returns.
    @inline(__always)
    func run<Value>(
        _ registration: Registration,
        in context: ResolutionContext,
        _ make: (DependencyInjector) throws -> Value
    ) throws(InjectionError) -> Value {
        noteFactoryRun(of: registration, in: context)
        try context.enter(registration)
        defer { context.leave() }
        do {
            if Self.current === self { return try make(self) }
            return try runAsCurrent(make)
        } catch {
            throw Self.failure(error, of: registration, in: context)
        }
    }

    /// `registration.build`, with this injector bound as `current` (unless `isCurrent`: it is
    /// already). Apart, for the stack.
    @inline(never)
    private func build(_ registration: Registration, arguments: Any, isCurrent: Bool) throws -> Any {
        if isCurrent { return try registration.build(with: self, arguments: arguments) }
        return try Self.$current.withValue(self) { try registration.build(with: self, arguments: arguments) }
    }

    /// Runs `make` with this injector bound as `current`; apart, so only the outermost factory
    /// of a chain, which needs the binding, has its frame on the stack.
    @inline(never)
    func runAsCurrent<Value>(_ make: (DependencyInjector) throws -> Value) throws -> Value {
        try Self.$current.withValue(self) { try make(self) }
    }

    /// What a failed factory of `registration` throws: an `InjectionError` as it is (a failure
    /// deeper in the chain), anything else wrapped with the path, up to `registration`.
    @inline(never)
    private static func failure(
        _ error: any Error,
        of registration: Registration,
        in context: ResolutionContext
    ) -> InjectionError {
        context.dropCapturedOfInnermost()  // the run threw: what it captured holds nothing up
        if let error = error as? InjectionError { return error }
        // An async factory whose value the actor face's runs in this task are making: this
        // synchronous run cannot await it because it waits for this run, a cycle.
        if error is RequiresAwait, AsyncWrapperCapture.isBuilding {
            let outer = AsyncResolutionContext.frames
            // The registration, not its key: a child's override of the key may be the one running.
            if outer.contains(registration) { return .circularDependency(path: outer.keys + context.path) }
        }
        return .factoryFailed(registration.key, path: context.path, underlying: error)
    }
}
