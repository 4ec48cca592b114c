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
    public func resolve<T>(_ type: T.Type = T.self, name: String? = nil) throws(InjectionError) -> T {
        let key = DependencyKey(type, name: name)
        var pending: Registration?
        do throws(Miss) {
            return try readyValue(for: key, as: T.self, pending: &pending)
        } catch {
            switch error {
            case .absent:
                return try unregistered(key, as: T.self)
            case .pending(let holder):
                // `readyValue` stores the registration whenever it throws `.pending`; were it
                // missing, the general path below would look the key up again.
                guard let registration = pending else { break }
                if registration.scope == .transient, let factory = registration.factory(making: T.self) {
                    return try make(registration, with: factory)
                }
                let owner = holder ?? self
                // `nil`: the registration was replaced or removed while we waited for it; the
                // general path below looks again.
                if let value = try produce(registration, heldBy: owner, keptBy: owner) {
                    return try Self.cast(value, to: T.self, key: key)
                }
            case .mismatch(let actual):
                throw Self.mismatch(key, actual: actual)
            case .instrumented:
                return try instrumentedResolve(key, as: T.self)
            case .inherited(let keeper):
                guard let value = try inheritedValue(for: key, keptBy: keeper) else {
                    return try unregistered(key, as: T.self)
                }
                return try Self.cast(value, to: T.self, key: key)
            }
        }
        guard let value = try value(for: key) else { return try unregistered(key, as: T.self) }
        return try Self.cast(value, to: T.self, key: key)
    }

    /// What a resolve of `key` returns when nothing is registered for it: a value the
    /// injector can make without a registration (a ``ProviderHandle``), or the error.
    func unregistered<T>(_ key: DependencyKey, as type: T.Type) throws(InjectionError) -> T {
        if let made = (T.self as? any ResolvableWithoutRegistration.Type)?.made(by: self, name: key.name) as? T {
            return made
        }
        throw .notRegistered(
            key, path: ResolutionContext.current.path + [key], suggestions: suggestions(for: key, as: T.self))
    }

    /// The value ready under `key` in this injector or the nearest ancestor that holds it,
    /// copied straight out of its slot into a `T` (the hot path); or why there is none, with
    /// the registration to run in `pending` when the error is `.pending`.
    ///
    /// This injector is asked first, outside the walk, so that the common case takes no
    /// references to injectors along the way.
    private func readyValue<T>(
        for key: DependencyKey, as type: T.Type, pending: inout Registration?
    ) throws(Miss) -> T {
        do throws(Miss) {
            return try registry.withLock { (registry) throws(Miss) -> T in
                // Diagnostics cost one load and one branch here while they are off.
                if registry.diagnostics.instrumentation != nil { throw .instrumented }
                return try registry.value(key, as: type, pending: &pending)
            }
        } catch .absent {
            // Not here: ask the ancestors.
        }
        var injector = self
        while let parent = injector.parent {
            if injector.inheritedSingletons != nil { throw .inherited(keeper: injector) }
            injector = parent
            do throws(Miss) {
                return try injector.registry.withLock { (registry) throws(Miss) -> T in
                    try registry.value(key, as: type, pending: &pending)
                }
            } catch .absent {
                continue
            } catch .pending {
                throw .pending(holder: injector)
            }
        }
        throw .absent
    }

    /// A value produced for `key` (by a factory) as the `T` it was registered as. `key` is
    /// built only for the error, which a later read of a `@LazyInject` would otherwise pay for.
    static func cast<T>(_ value: Any, to type: T.Type, key: @autoclosure () -> DependencyKey) throws(InjectionError)
        -> T
    {
        do throws(Miss) {
            return try Injector.cast(value, to: type)
        } catch {
            throw mismatch(key(), actual: Swift.type(of: value))
        }
    }

    /// The error for a value under `key` that is not of `key`'s type: unreachable while keys
    /// are type identities, reported rather than trapped.
    private static func mismatch(_ key: DependencyKey, actual: any Any.Type) -> InjectionError {
        .factoryFailed(
            key,
            path: ResolutionContext.current.path + [key],
            underlying: UnexpectedValueType(expected: key.type, actual: actual)
        )
    }

    /// The value for `key`, from this injector or the nearest ancestor that holds it; `nil`
    /// when none does.
    func value(for key: DependencyKey) throws(InjectionError) -> Any? {
        while true {
            switch find(key) {
            case .ready(let value):
                return value
            case .pending(let registration, let owner):
                // `nil`: the registration was replaced or removed while we waited for it, so
                // the loop starts over.
                if let value = try produce(registration, heldBy: owner, keptBy: owner) { return value }
            case .inherited(let keeper):
                return try inheritedValue(for: key, keptBy: keeper)
            case nil:
                return nil
            }
        }
    }

    /// What the nearest injector that holds `key`, this one or an ancestor, finds under it.
    ///
    /// This injector is asked first, outside the walk, so that the common case takes no
    /// references to injectors along the way.
    private func find(_ key: DependencyKey) -> Found? {
        if let lookup = registry.withLock({ $0.lookup(key) }) { return Found(lookup, owner: self) }
        var injector = self
        while let parent = injector.parent {
            // An injector that keeps its inherited singletons resolves the rest of the walk.
            if injector.inheritedSingletons != nil { return .inherited(keeper: injector) }
            injector = parent
            if let lookup = injector.registry.withLock({ $0.lookup(key) }) { return Found(lookup, owner: injector) }
        }
        return nil
    }

    /// Runs `registration`'s factory as its scope says: a transient is built by the injector
    /// that resolves it (so a child's overrides apply), a singleton or weak instance by the
    /// injector that keeps it: `holder`, which holds the registration, or a descendant that
    /// keeps its own inherited singletons. `nil` when the registration was replaced or removed
    /// while we waited for it.
    func produce(
        _ registration: Registration,
        heldBy holder: DependencyInjector,
        keptBy keeper: DependencyInjector
    ) throws(InjectionError) -> Any? {
        let context = ResolutionContext.current
        try context.checkNotResolving(registration)
        if case .withArguments(let types, _, _) = registration.factory {
            throw .argumentMismatch(
                registration.key,
                path: context.path + [registration.key],
                expected: types.map { String(reflecting: $0) },
                given: []
            )
        }
        switch registration.scope {
        case .transient:
            return try run(registration, in: context)
        case .singleton, .weak, .eagerSingleton:
            return try SingletonCreation.shared.value(
                of: registration, heldBy: holder, keptBy: keeper, context: context)
        }
    }

    /// A transient whose factory makes a `T`, made by that factory: `produce` and `run`
    /// without boxing the value in an `Any` and casting it back (the transient hot path).
    private func make<T>(_ registration: Registration, with factory: TypedFactory<T>) throws(InjectionError) -> T {
        let context = ResolutionContext.current
        try context.checkNotResolving(registration)
        return try run(registration, in: context, factory.make)
    }

    /// Runs `registration`'s factory with this injector, which is `current` meanwhile so that
    /// wrappers in the objects it builds resolve from it.
    func run(_ registration: Registration, in context: ResolutionContext, arguments: Any = ()) throws(InjectionError)
        -> Any
    {
        try run(registration, in: context) { injector in try registration.build(with: injector, arguments: arguments) }
    }

    /// Runs `make`, `registration`'s factory, as `run(_:in:arguments:)` describes.
    private func run<Value>(
        _ registration: Registration,
        in context: ResolutionContext,
        _ make: (DependencyInjector) throws -> Value
    ) throws(InjectionError) -> Value {
        noteFactoryRun(of: registration, in: context)
        do {
            return try context.withFrame(registration) {
                if Self.current === self { return try make(self) }
                return try Self.$current.withValue(self) { try make(self) }
            }
        } catch let error as InjectionError {
            throw error
        } catch {
            throw .factoryFailed(registration.key, path: context.path + [registration.key], underlying: error)
        }
    }
}

/// What a resolve found, and where.
private enum Found {
    /// A value to return.
    case ready(Any)
    /// A factory to run, and the injector whose registration it is.
    case pending(Registration, owner: DependencyInjector)
    /// Not in `keeper`, which builds and keeps what it inherits (see `InheritedSingletons`).
    case inherited(keeper: DependencyInjector)

    init(_ lookup: Lookup, owner: DependencyInjector) {
        switch lookup {
        case .ready(let value): self = .ready(value)
        case .pending(let registration): self = .pending(registration, owner: owner)
        }
    }
}
