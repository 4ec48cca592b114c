extension DependencyInjector {
    /// Registers a factory that builds `type`, under `name`, for `scope`.
    ///
    /// ```swift
    /// injector.register(Engine.self, scope: .singleton) { _ in V8() }
    /// injector.register(Car.self) { r in try Car(engine: r.resolve()) }
    /// injector.register(String.self, name: "baseURL") { _ in "https://example.com" }
    /// ```
    ///
    /// The factory receives the injector that is building the value, to resolve the value's
    /// own dependencies; use it rather than capturing an injector. Any error it throws reaches
    /// the caller of `resolve` as ``InjectionError/factoryFailed(_:path:underlying:)``.
    ///
    /// Registering a key again replaces the earlier registration and drops the singleton it
    /// may have created.
    public func register<T>(
        _ type: T.Type = T.self,
        name: String? = nil,
        scope: Scope = .transient,
        factory: @escaping @Sendable (DependencyInjector) throws -> T
    ) {
        let key = DependencyKey(type, name: name)
        let registration = Registration(key: key, scope: scope) { injector in try factory(injector) }
        registry.withLock { $0[key] = .factory(registration, .empty) }
    }

    /// Registers an existing value under `type` (by default the value's static type), as a
    /// singleton that already exists.
    ///
    /// ```swift
    /// injector.register(StripePayments() as PaymentService)
    /// injector.register(StripePayments(), as: PaymentService.self)
    /// injector.register("https://example.com", name: "baseURL")
    /// ```
    ///
    /// > Important: The key is the type you register *as*. `register(StripePayments())` is
    /// > found by `resolve(StripePayments.self)`, not by `resolve(PaymentService.self)`.
    ///
    /// Registering a key again replaces the earlier value.
    public func register<T>(_ instance: T, as type: T.Type = T.self, name: String? = nil) {
        let key = DependencyKey(type, name: name)
        registry.withLock { $0[key] = .instance(instance, key) }
    }

    /// Removes this injector's registration of `type` under `name`, and the singleton it may
    /// have created.
    ///
    /// Removing a key that is not registered does nothing. Ancestors are not touched: after
    /// removing a child's override, the child sees its parent's registration again.
    public func unregister<T>(_ type: T.Type, name: String? = nil) {
        let key = DependencyKey(type, name: name)
        registry.withLock { $0[key] = nil }
    }

    /// Whether `type` under `name` is registered in this injector or one of its ancestors.
    public func isRegistered<T>(_ type: T.Type, name: String? = nil) -> Bool {
        let key = DependencyKey(type, name: name)
        var injector: DependencyInjector? = self
        while let current = injector {
            if current.registry.withLock({ $0[key] }) != nil { return true }
            injector = current.parent
        }
        return false
    }
}
