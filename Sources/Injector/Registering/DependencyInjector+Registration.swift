extension DependencyInjector {
    /// Registers a factory that builds `type`, under `name`, for `scope`.
    ///
    /// ```swift
    /// injector.register(Engine.self, scope: .singleton) { _ in V8() }
    /// injector.register(Car.self) { r in try Car(engine: r.resolve()) }
    /// injector.register(String.self, name: "baseURL") { _ in "https://example.com" }
    /// ```
    ///
    /// The factory gets the injector that is building the value, to resolve its dependencies
    /// (use it rather than a captured injector). An error it throws reaches the caller of
    /// `resolve` as ``InjectionError/factoryFailed(_:path:underlying:)``. Registering a key
    /// again replaces the registration and drops the singleton it may have created.
    ///
    /// Without a `scope`, the registration takes the ``defaultScope`` of the module being
    /// installed, if it sets one, else the injector's. The result completes the registration
    /// (``Registered/initCompleted(_:)``,
    /// ``Registered/implements(_:)``); ignore it otherwise.
    ///
    /// `fileID` and `line` (leave the defaults) say where the registration was made, in
    /// messages that name it (``RegistrationSite``).
    @discardableResult
    @inlinable
    public func register<T>(
        _ type: T.Type = T.self,
        name: String? = nil,
        scope: Scope? = nil,
        fileID: StaticString = #fileID,
        line: UInt = #line,
        factory: @escaping @Sendable (DependencyInjector) throws -> T
    ) -> Registered<T> {
        // Inlined, so that the caller's `T` is concrete where `TypedRegistration<T>` is created:
        // generic, it looked up that type's metadata at run time on every registration.
        let key = DependencyKey(type, name: name)
        let registration = store(scope: scope, fileID: fileID, line: line) { scope, site in
            TypedRegistration(factory, key: key, scope: scope, site: site)
        }
        return Registered(injector: self, registration: registration)
    }

    /// Registers an existing value under `type` (by default its static type), as a singleton.
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
    /// Registering a key again replaces the earlier value. `fileID` and `line` (leave the
    /// defaults) say where the registration was made, in messages that name it.
    public func register<T>(
        _ instance: T,
        as type: T.Type = T.self,
        name: String? = nil,
        fileID: StaticString = #fileID,
        line: UInt = #line
    ) {
        store(instance: instance, for: DependencyKey(type, name: name), fileID: fileID, line: line)
    }

    /// `register(_:as:name:fileID:line:)` for a value assigned to a property (`@Provider`), which has no
    /// call site to name.
    /// Returns whether it was stored (a sealed injector refuses it).
    @usableFromInline
    func registerAssigned<T>(_ instance: T, name: String?) -> Bool {
        store(instance: instance, for: DependencyKey(T.self, name: name), fileID: nil, line: 0)
    }

    /// Removes this injector's registration of `type` under `name`, and any singleton it made.
    ///
    /// Removing a key that is not registered does nothing. Ancestors are not touched: after
    /// removing a child's override, the child sees its parent's registration again. Removing
    /// a collection (`[T]` or `[K: T]`, see ``register(into:key:scope:fileID:line:factory:)``)
    /// removes the elements this injector added to it: a later element starts it anew.
    public func unregister<T>(_ type: T.Type, name: String? = nil) {
        let key = DependencyKey(type, name: name)
        let installation = Installation.current(into: self)
        // Its elements too, whether the collection gathers them now or a registration by hand
        // replaced it: unregistered, it starts anew.
        let elements = registry.withLock { registry in
            registry.collections[key].map { $0.present(in: registry).map(\.key) } ?? []
        }
        store(nil, for: key, recordingIn: installation)
        for element in elements { store(nil, for: element, recordingIn: installation) }
    }

    /// Whether `type` under `name` is registered in this injector or one of its ancestors.
    public func isRegistered<T>(_ type: T.Type, name: String? = nil) -> Bool {
        lookup(DependencyKey(type, name: name)) != nil
    }

    /// Stores a factory registration under `key`, attributed to the module being installed;
    /// without a `scope`, the module's default scope, or this injector's.
    @discardableResult
    func store(
        key: DependencyKey,
        scope: Scope?,
        factory: Registration.Factory,
        caching: ArgumentCaching? = nil,
        fileID: StaticString?,
        line: UInt
    ) -> Registration {
        store(scope: scope, fileID: fileID, line: line) { scope, site in
            Registration(
                key: key, scope: scope, factory: factory, site: site, caching: caching)
        }
    }

    /// Stores the registration that `make` makes with its scope (`scope`, else the default
    /// scope of the module being installed, else this injector's) and site (`fileID:line`,
    /// and the module being installed), under its key.
    @usableFromInline
    @discardableResult
    func store(
        scope: Scope?,
        fileID: StaticString?,
        line: UInt,
        making make: (Scope, RegistrationSite) -> Registration
    ) -> Registration {
        store(scope: scope, site: { RegistrationSite(fileID: fileID, line: line, module: $0?.module) }, making: make)
    }

    /// `store(scope:fileID:line:making:)` at a given `site`.
    @discardableResult
    func store(
        scope: Scope?,
        site: RegistrationSite,
        making make: (Scope, RegistrationSite) -> Registration
    ) -> Registration {
        store(scope: scope, site: { _ in site }, making: make)
    }

    /// Stores what `make` makes, at the site that `site` gives for the installation running.
    private func store(
        scope: Scope?,
        site: (Installation?) -> RegistrationSite,
        making make: (Scope, RegistrationSite) -> Registration
    ) -> Registration {
        let installation = Installation.current(into: self)
        let registration = make(scope ?? installation?.defaultScope ?? defaultScope, site(installation))
        store(.pending(registration), for: registration.key, recordingIn: installation)
        return registration
    }

    /// Stores an existing value under `key`, registered at `fileID:line` (`nil`: by an
    /// assignment), attributed to the module being installed; returns whether it was stored.
    @discardableResult
    func store(instance: Any, for key: DependencyKey, fileID: StaticString?, line: UInt) -> Bool {
        let installation = Installation.current(into: self)
        let site = RegistrationSite(fileID: fileID, line: line, module: installation?.module).of(.instance)
        return store(.make(.instance(instance, key, site: site)), for: key, recordingIn: installation)
    }

    /// Replaces what is stored under `key`, unless sealed, noting it for a failed `install`;
    /// returns whether it did.
    @discardableResult
    private func store(_ slot: Registry.Slot?, for key: DependencyKey, recordingIn installation: Installation?)
        -> Bool
    {
        // The previous entry is released after the unlock, or kept by the installation; the
        // published table that held it is freed first (see `PublishedTable`).
        var refused = false
        var previous: Registry.Slot?
        // Whether what it replaced is the installation's own (it registered the key before).
        var replacesInstallationsOwn = false
        // The installation, unless it ended meanwhile (a task one of its modules started):
        // then the registration is no longer its, and goes as one made outside any.
        var installation = installation
        let retired = registry.withLock { registry in
            refused = registry.isSealed
            if !refused {
                previous = registry.replace(key, withSlot: slot)
                // Asked only when there are any: hashing the key (its name) costs a registration
                // more than all its other bookkeeping.
                var parameters: [DependencyKey]?
                if !registry.initializerParameters.isEmpty {
                    // An initializer's, noted again after; put back with it by a failed installation.
                    parameters = registry.initializerParameters.removeValue(forKey: key)
                }
                // Noted in the same locked step as the replacement (the journal's lock inside
                // this one, never the other way): two tasks of one installation registering the
                // key at once each see what the other replaced.
                if let recording = installation {
                    if let isFirst = recording.recordReplacement(
                        of: key, previous: previous?.entry, parameters: parameters,
                        isEager: slot?.entry.isEager ?? false)
                    {
                        replacesInstallationsOwn = !isFirst
                    } else {
                        installation = nil
                    }
                }
            }
            return registry.ready.takeRetired()
        }
        retired.reclaim()
        defer { withExtendedLifetime(previous) {} }  // released here, not under the lock
        // A value an installation replaces (one kept per argument tuple too) is torn down when
        // the installation succeeds (it puts the value back if it fails).
        // Asked only when something was replaced: a new key (most registrations) copies no entry.
        if installation == nil, let previous { tearDown(teardowns(ofReplaced: previous.entry)) }
        guard !refused else {
            // `install` throws it; else (`register` cannot throw) the observer hears of it.
            if installation?.recordRefusal(of: key) != true { reportRefusal(of: key) }
            return false
        }
        // A key registered again by the same installation: what it replaces is its own, for good.
        // User code, which is not the installation's: what it registers is not undone with it.
        if replacesInstallationsOwn {
            Installation.$current.withValue(nil) { tearDown(teardowns(ofReplaced: previous?.entry)) }
        }
        return true
    }

    /// The teardowns of the values kept for `entry`, replaced or removed for good, which this
    /// lets go of: its registry's; for an opened scope's own scoped registration, the one kept
    /// with its copies; for a registration that caches by argument, every tuple's (see
    /// `KeptValues`). A creation running now hands its value to its resolves alone. The value of
    /// a plain child's scoped registration, which the scope above it keeps, the scope tears down.
    func teardowns(ofReplaced entry: Entry?) -> [PendingTeardown] {
        let kept = entry?.teardown.map { [$0] } ?? []
        guard case .factory(let replaced, _)? = entry else { return kept }
        if replaced.caching != nil {
            let tuples = registry.withLock { $0.kept.dropTuples(madeBy: replaced) }
            return kept + KeptValues.Tuples.teardowns(of: tuples.map { [$0] } ?? [])
        }
        guard replaced.isScoped else { return kept }
        guard opensScope else {
            letEnclosingScopeGo(of: replaced)
            return kept
        }
        return kept + (keptValues?.withLock { $0.dropValue(of: replaced) }?.teardown.map { [$0] } ?? [])
    }

    /// Lets go of the values that the opened scope above this plain child keeps of
    /// `registration`, the child's own `.scoped` one (or of its stand-ins), as the scope does for
    /// its own on a replacement or a decorator: torn down by the scope, whose `close()` awaits
    /// them and throws their failures (nothing closes a plain child). They stayed until the
    /// scope ended, and every resolve through the child got the old value.
    func letEnclosingScopeGo(of registration: Registration) {
        guard !opensScope, registration.isScoped, let scope = enclosingScope else { return }
        scope.tearDown(scope.keptValues?.withLock { $0.dropValues(madeFor: registration) }.teardowns ?? [])
    }

    /// The entry for `key` in this injector or the nearest ancestor that has one, and its owner.
    func lookup(_ key: DependencyKey) -> (entry: Entry, owner: DependencyInjector)? {
        var injector: DependencyInjector? = self
        while let current = injector {
            if let entry = current.registry.withLock({ $0[key] }) { return (entry, current) }
            injector = current.parent
        }
        return nil
    }
}
