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
            throw .notRegistered(
                key, path: ResolutionContext.current.path + [key], suggestions: suggestions(for: key, as: T.self))
        }
        return try Self.cast(value, to: T.self, key: key)
    }

    /// `value`, which was stored under `key`, as the `T` it was registered as.
    ///
    /// Passing the `Any` as a generic `Value` opens it. When the value's own type is `T`
    /// itself (a concrete type registered as itself, the common case), the conversion is the
    /// identity and needs no run-time cast; otherwise (`T` is a protocol the value conforms to)
    /// the runtime casts, straight into the result: `as? T` would build an `Optional<T>`,
    /// whose metadata a generic function looks up on every call. Together this takes a third
    /// off a resolve of a ready singleton.
    private static func cast<T, Value>(
        _ value: Value, to type: T.Type, key: DependencyKey
    ) throws(InjectionError) -> T {
        // Safe: `Value` and `T` were just checked to be the same type, so this converts
        // nothing. It only tells the compiler what the check proved.
        if Value.self == T.self { return unsafeBitCast(value, to: T.self) }
        switch value {
        case let typed as T:
            return typed
        default:
            // Unreachable while keys are type identities; reported rather than trapped.
            throw .factoryFailed(
                key,
                path: ResolutionContext.current.path + [key],
                underlying: UnexpectedValueType(expected: key.type, actual: Value.self)
            )
        }
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
                if let value = try produce(registration, foundIn: owner) { return value }
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
        var ancestor = parent
        while let injector = ancestor {
            if let lookup = injector.registry.withLock({ $0.lookup(key) }) { return Found(lookup, owner: injector) }
            ancestor = injector.parent
        }
        return nil
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

/// What a resolve found, and where.
private enum Found {
    /// A value to return.
    case ready(Any)
    /// A factory to run, and the injector whose registration it is.
    case pending(Registration, owner: DependencyInjector)

    init(_ lookup: Lookup, owner: DependencyInjector) {
        switch lookup {
        case .ready(let value): self = .ready(value)
        case .pending(let registration): self = .pending(registration, owner: owner)
        }
    }
}
