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
        var isInstrumented = false
        guard let value = try value(for: key, unlessInstrumented: &isInstrumented) else {
            if isInstrumented { return try instrumentedResolve(key, as: type) }
            throw .notRegistered(
                key, path: ResolutionContext.current.path + [key], suggestions: suggestions(for: key, as: T.self))
        }
        guard let typed = value as? T else {
            // Unreachable while keys are type identities; reported rather than trapped.
            throw .factoryFailed(
                key,
                path: ResolutionContext.current.path + [key],
                underlying: UnexpectedValueType(expected: key.type, actual: Swift.type(of: value))
            )
        }
        return typed
    }

    /// The value for `key`, from this injector or the nearest ancestor that holds it; `nil`
    /// when none does.
    func value(for key: DependencyKey) throws(InjectionError) -> Any? {
        var isInstrumented = false
        return try value(for: key, unlessInstrumented: &isInstrumented, checking: false)
    }

    /// ``value(for:)``, or `nil` with `isInstrumented` set when this injector is instrumented
    /// (diagnostics read their switch in the first lookup's lock: one load and one branch).
    private func value(
        for key: DependencyKey,
        unlessInstrumented isInstrumented: inout Bool,
        checking: Bool = true
    ) throws(InjectionError) -> Any? {
        var injector = self
        var checking = checking
        while true {
            switch injector.registry.withLock({ registry -> Entry? in
                if checking {
                    checking = false
                    isInstrumented = registry.diagnostics.instrumentation != nil
                    if isInstrumented { return nil }
                }
                return registry[key]
            }) {
            case .instance(let value, _):
                return value
            case .factory(let registration, let cache):
                if let value = cache.value { return value }
                if let value = try produce(registration, foundIn: injector) { return value }
                // The registration was replaced or removed while we waited for it: start over.
                injector = self
            case nil:
                guard !isInstrumented, let parent = injector.parent else { return nil }
                if injector.inheritedSingletons != nil { return try inheritedValue(for: key, keptBy: injector) }
                injector = parent
            }
        }
    }

    /// Runs `registration`'s factory as its scope says: a transient is built by the injector
    /// that resolves it (so a child's overrides apply), a singleton or weak instance by the
    /// injector that keeps it.
    private func produce(_ registration: Registration, foundIn owner: DependencyInjector) throws(InjectionError) -> Any?
    {
        let context = ResolutionContext.current
        if context.isResolving(registration) {
            throw .circularDependency(path: context.path + [registration.key])
        }
        switch registration.scope {
        case .transient:
            return try run(registration, in: context)
        case .singleton, .weak:
            return try SingletonCreation.shared.value(of: registration, cachedBy: owner, context: context)
        }
    }

    /// Runs `registration`'s factory with this injector, which is `current` meanwhile so that
    /// wrappers in the objects it builds resolve from it.
    func run(_ registration: Registration, in context: ResolutionContext) throws(InjectionError) -> Any {
        noteFactoryRun(of: registration, in: context)
        do {
            return try context.withFrame(registration) {
                if Self.current === self { return try registration.make(self) }
                return try Self.$current.withValue(self) { try registration.make(self) }
            }
        } catch let error as InjectionError {
            throw error
        } catch {
            throw .factoryFailed(registration.key, path: context.path + [registration.key], underlying: error)
        }
    }
}
