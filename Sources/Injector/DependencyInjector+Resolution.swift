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
        try resolve(DependencyKey(type, name: name), as: T.self, observed: true) { key throws(InjectionError) in
            try unregistered(key, as: T.self)
        }
    }

    /// The one resolve: the value for `key` as a `T`, from this injector or the nearest
    /// ancestor that holds it, created if its scope says so; what `ifAbsent` returns when none
    /// holds it. `observed`: whether an observer on this injector hears of it.
    ///
    /// A value that is ready (an instance, a created singleton) is copied out of its slot under
    /// the lock, straight into the result. Nothing on a successful path throws: a lookup reports
    /// what it found as a `Miss`, never by throwing, since test runners record a backtrace for
    /// every thrown error. Nor does anything here return an optional `T`: in this unspecialised
    /// generic code, an `Optional<T>` looks up its type metadata on every call, which cost more
    /// than the whole lookup. So the lock is taken and released by hand, to return the value
    /// from under it or go on without it.
    func resolve<T>(
        _ key: DependencyKey,
        as type: T.Type,
        observed: Bool,
        ifAbsent: (DependencyKey) throws(InjectionError) -> T
    ) throws(InjectionError) -> T {
        // This injector is asked first, outside the walk, so that the common case takes no
        // reference to an injector.
        var miss = Miss.absent
        let registry = self.registry.lock()
        // Diagnostics cost one load and one branch here while they are off.
        if observed, registry.pointee.diagnostics.instrumentation != nil {
            self.registry.unlock()
            return try instrumentedResolve(key, as: T.self, ifAbsent: ifAbsent)
        }
        if let slot = registry.pointee.readySlot(key, miss: &miss) {
            defer { self.registry.unlock() }
            return try ReadySlot.value(of: slot, as: T.self, key: key)
        }
        self.registry.unlock()

        var injector = self
        while true {
            switch miss {
            case .absent:
                guard let parent = injector.parent else { return try ifAbsent(key) }
                // An injector that keeps its inherited singletons resolves the rest of the walk.
                if injector.inheritedSingletons != nil {
                    guard let value = try inheritedValue(for: key, keptBy: injector) else { return try ifAbsent(key) }
                    return try Self.cast(value, to: T.self, key: key)
                }
                injector = parent
            case .pending(let registration):
                if registration.scope == .transient, let factory = registration.factory(making: T.self) {
                    return try make(registration, with: factory)
                }
                if let value = try produce(registration, heldBy: injector, keptBy: injector) {
                    return try Self.cast(value, to: T.self, key: key)
                }
                // The registration was replaced or removed while we waited for it: start over.
                injector = self
            }
            miss = .absent
            let registry = injector.registry.lock()
            if let slot = registry.pointee.readySlot(key, miss: &miss) {
                defer { injector.registry.unlock() }
                return try ReadySlot.value(of: slot, as: T.self, key: key)
            }
            injector.registry.unlock()
        }
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

    /// The value for `key`, from this injector or the nearest ancestor that holds it; `nil`
    /// when none does.
    func value(for key: DependencyKey) throws(InjectionError) -> Any? {
        try resolve(key, as: Any?.self, observed: false) { _ in nil }
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

private typealias ReadySlot = Registry.ReadySlot
