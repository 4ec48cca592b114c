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
        guard let value = try value(for: key) else {
            if let made = (T.self as? any ResolvableWithoutRegistration.Type)?.made(by: self, name: name) as? T {
                return made
            }
            throw .notRegistered(
                key, path: ResolutionContext.current.path + [key], suggestions: suggestions(for: key, as: T.self))
        }
        return try cast(value, to: T.self, key: key)
    }

    /// `value` as a `T`. Keys are type identities, so the cast cannot fail through the public
    /// API; a broken invariant is reported as a typed error rather than trapped.
    func cast<T>(_ value: Any, to type: T.Type, key: DependencyKey) throws(InjectionError) -> T {
        guard let typed = value as? T else {
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
        var injector = self
        while true {
            switch injector.registry.withLock({ $0[key] }) {
            case .instance(let value, _, _):
                return value
            case .factory(let registration, let cache):
                if let value = cache.value { return value }
                if let value = try produce(registration, foundIn: injector) { return value }
                // The registration was replaced or removed while we waited for it: start over.
                injector = self
            case nil:
                guard let parent = injector.parent else { return nil }
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
            return try SingletonCreation.shared.value(of: registration, cachedBy: owner, context: context)
        }
    }

    /// Runs `registration`'s factory with this injector, which is `current` meanwhile so that
    /// wrappers in the objects it builds resolve from it.
    func run(_ registration: Registration, in context: ResolutionContext, arguments: Any = ()) throws(InjectionError)
        -> Any
    {
        let make = {
            switch registration.factory {
            case .plain(let make): try make(self)
            case .withArguments(_, _, let make): try make(self, arguments)
            }
        }
        do {
            return try context.withFrame(registration) {
                if Self.current === self { return try make() }
                return try Self.$current.withValue(self, operation: make)
            }
        } catch let error as InjectionError {
            throw error
        } catch {
            throw .factoryFailed(registration.key, path: context.path + [registration.key], underlying: error)
        }
    }
}
