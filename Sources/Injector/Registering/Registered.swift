/// A factory registration just made, to complete: a hook that runs on each value it makes,
/// and more keys it answers.
///
/// ```swift
/// injector.register(Presenter.self, scope: .graph) { _ in Presenter() }
///     .initCompleted { r, presenter in presenter.view = try r.resolve(LoginView.self) }
///
/// injector.register(Stripe.self, scope: .singleton) { _ in Stripe() }
///     .implements(PaymentService.self, Refunds.self)
/// ```
///
/// `register` returns it, and you may ignore it. Each call changes the stored registration if
/// it is still the one stored under its key (a later `register` of the key wins), and adds to
/// what earlier calls added, whether chained or made through one handle kept aside.
public struct Registered<Value>: Sendable {
    let injector: DependencyInjector
    let registration: Registration

    @usableFromInline
    init(injector: DependencyInjector, registration: Registration) {
        self.injector = injector
        self.registration = registration
    }

    /// The key the registration is stored under. An element of a collection has a key of its
    /// own, which takes it out of the collection again:
    ///
    /// ```swift
    /// let sink = app.register(into: [any AnalyticsSink].self) { _ in ConsoleSink() }
    /// app.unregister((any AnalyticsSink).self, name: sink.key.name)
    /// ```
    public var key: DependencyKey { registration.key }

    /// Runs `complete` on each value the factory makes, before the resolve that asked for it
    /// gets it: property and method injection (Swinject's `initCompleted`, Resolver's
    /// `resolveProperties`).
    ///
    /// ```swift
    /// injector.register(LoginPresenter.self, scope: .graph) { _ in LoginPresenter() }
    ///     .initCompleted { r, presenter in presenter.view = try r.resolve(LoginView.self) }
    /// injector.register(LoginView.self, scope: .graph) { r in try LoginView(presenter: r.resolve()) }
    /// ```
    ///
    /// The value is already shared with the resolve that is building it, so `complete` may
    /// resolve what refers back to it: above, `LoginView`'s factory gets the presenter being
    /// completed, and the view keeps it as its (weak) back-reference. A real cycle, where a
    /// factory needs a value whose factory is still running, is still reported as
    /// ``InjectionError/circularDependency(path:)``. A singleton's other resolves wait until
    /// `complete` returns. An error `complete` throws fails the resolve, as a factory's does,
    /// and nothing is kept. Several calls add several hooks, which run in the order they were
    /// added (as Swinject runs them); a hook that throws stops the ones after it. With
    /// decorators (``DependencyInjector/decorate(_:name:fileID:line:_:)``) on the key, the value
    /// is decorated first, and shared decorated: a resolve of the key inside the hook gets the
    /// one decorated value, while `complete` gets the value the factory made. Added after values
    /// were made, a hook runs on those made from then on: a singleton or a scope's value made
    /// before it stays as it was made.
    ///
    /// ```swift
    /// injector.register(Checkout.self) { _ in Checkout() }
    ///     .initCompleted { r, checkout in checkout.cart = try r.resolve() }
    ///     .initCompleted { r, checkout in checkout.payments = try r.resolve() }  // runs second
    /// ```
    @discardableResult
    public func initCompleted(
        _ complete: @escaping @Sendable (DependencyInjector, Value) throws -> Void
    ) -> Registered<Value> {
        completed(by: Self.typed(complete))
    }

    /// `complete`, a hook of `Value`s, as a registration's completion, which takes `Any`.
    private static func typed(_ complete: @escaping @Sendable (DependencyInjector, Value) throws -> Void)
        -> Registration.Completion
    {
        .sync { injector, value in
            guard let value = value as? Value else { return }
            try complete(injector, value)
        }
    }

    /// ``initCompleted(_:)`` for a hook that runs on the main actor: for a `@MainActor` type
    /// (a view controller, a view model), wired without `MainActor.assumeIsolated`. Mark the
    /// closure `@MainActor`:
    ///
    /// ```swift
    /// injector.mainActor.register(LoginViewController.self) { _ in LoginViewController() }
    ///     .initCompleted { @MainActor r, controller in controller.presenter = try r.resolve() }
    /// ```
    ///
    /// A resolve off the main actor that would run the hook throws
    /// ``InjectionError/requiresMainActor(_:path:)``; ``AsyncDependencyInjector`` runs the
    /// registration (its factory and the hook) on the main actor.
    @discardableResult
    public func initCompleted(
        mainActor complete: @escaping @MainActor (DependencyInjector, Value) throws -> Void
    ) -> Registered<Value> {
        let key = registration.key
        let onMainActor = Self.typed { injector, value in
            // Handed in unchecked, as every value of the sync face is handed out.
            nonisolated(unsafe) let value = value
            try MainQueue.run(for: key) { try complete(injector, value) }
        }
        return completed(by: onMainActor, onMainActor: true)
    }

    /// Closes each value the injector keeps for this registration when the injector lets it
    /// go: when the scope that keeps it is closed, when it is reset, replaced or unregistered,
    /// when a test scope ends, and on the injector's ``DependencyInjector/close()``.
    ///
    /// ```swift
    /// injector.register(ConnectionPool.self, scope: .singleton) { _ in try ConnectionPool.open() }
    ///     .teardown { pool in pool.close() }
    /// injector.register(Transaction.self, scope: .scoped) { r in try Transaction(pool: r.resolve()) }
    ///     .teardown { try $0.commit() }
    /// ```
    ///
    /// Values are closed in reverse creation order (a transaction before the pool it came
    /// from), each once, outside any lock; a teardown that throws does not stop the others,
    /// and its error reaches ``DependencyInjector/close()``'s ``TeardownError``. Only values
    /// the injector keeps strongly are torn down: a registration whose scope keeps nothing
    /// (``Scope/transient``, ``Scope/graph``) or keeps weakly (``Scope/weak``) hands its values
    /// to the caller, who closes them. The values of its test double (``inTests(fileID:line:_:)``)
    /// and preview stand-in (``inPreviews(fileID:line:_:)``) are closed by it too. A second call
    /// replaces the first teardown. Attach it where you register: attached later, it closes
    /// the singleton made before it, in its place in creation order, but a value that an
    /// opened scope or a test scope keeps already (or is making as it is attached) stays that
    /// scope's one value and is closed by it only if a resolve in the scope reaches the value
    /// again before the scope closes.
    @discardableResult
    public func teardown(_ close: @escaping @Sendable (Value) throws -> Void) -> Registered<Value> {
        replaced { extras in
            extras.setTeardown(.sync { value in try DependencyInjector.call(close, with: value) })
        }
    }

    /// ``teardown(_:)`` for a teardown that runs on the main actor, as a `@MainActor` type's
    /// must (in a target whose default isolation is the main actor, every type's): the closure
    /// is `@MainActor`, with no mark, and touches the value's state without `assumeIsolated`.
    ///
    /// ```swift
    /// injector.mainActor.register(PlayerModel.self, scope: .singleton) { _ in PlayerModel() }
    ///     .teardown(mainActor: { player in player.stop() })
    /// ```
    ///
    /// A ``DependencyInjector/close()`` on the main actor runs it in place, in its turn, and
    /// throws its failure (a reset, replacement or unregistration there runs it in place too);
    /// one elsewhere cannot hop there, and runs it as an asynchronous teardown: in a task, on
    /// the main actor, with the teardowns after it. The actor face's
    /// ``AsyncDependencyInjector/close()`` awaits the main actor for it.
    @discardableResult
    public func teardown(mainActor close: @escaping @MainActor @Sendable (Value) throws -> Void) -> Registered<Value> {
        replaced { extras in
            extras.setTeardown(.mainActor { value in try DependencyInjector.call(close, with: value) })
        }
    }

    /// Makes the registration answer `types` too (under the same name), with the value it
    /// makes: one singleton for every key (Swinject's and Resolver's `implements`).
    ///
    /// ```swift
    /// injector.register(Stripe.self, scope: .singleton) { _ in Stripe() }
    ///     .implements(PaymentService.self, Refunds.self)
    /// try injector.resolve(PaymentService.self) === injector.resolve(Refunds.self)  // one Stripe
    /// ```
    ///
    /// A value that is not of a forwarded type makes its resolve throw
    /// ``InjectionError/notImplemented(_:path:implementation:)``.
    /// ``DependencyInjector/registrations`` lists each forwarded key with the key it forwards
    /// to, and `verify()` resolves forwarded keys like any other.
    @discardableResult
    public func implements<each Forwarded>(_ types: repeat (each Forwarded).Type) -> Registered<Value> {
        repeat forward(each types, name: registration.key.name)
        return self
    }

    /// Makes the registration answer `types` under `name` (`nil`: unnamed), with the value it
    /// makes: one value under a key of another name (Swinject's `implements` with a name).
    ///
    /// ```swift
    /// injector.register(Stripe.self, name: "stripe", scope: .singleton) { _ in Stripe() }
    ///     .implements(PaymentService.self, name: "primary")
    ///     .implements(PaymentService.self, name: nil)  // and the unnamed key
    /// try injector.resolve(PaymentService.self, name: "primary")  // the Stripe
    /// ```
    ///
    /// The rules are those of ``implements(_:)``.
    @discardableResult
    public func implements<each Forwarded>(_ types: repeat (each Forwarded).Type, name: String?) -> Registered<Value> {
        repeat forward(each types, name: name)
        return self
    }

    /// Registers `type` under `name` as a key that resolves to this registration's value, if
    /// it is still the one stored under its key, as every modifier does (a later `register` of
    /// the key wins), or a modification of it (a hook added through another `Registered` of
    /// it: the forward adds a key, and changes nothing a hook added). One replacing it
    /// meanwhile finds the forward as a `register` made after this call would.
    fileprivate func forward<Forwarded>(_ type: Forwarded.Type, name: String?) {
        let target = registration.key
        let isStored = injector.registry.withLock { registry in
            guard case .factory(let current, _)? = registry[target] else { return false }
            return current.isModification(of: registration)
        }
        guard isStored else { return }
        let key = DependencyKey(type, name: name)
        guard case .async = registration.factory else {
            injector.store(scope: .transient, site: registration.site) { scope, site in
                TypedRegistration<Forwarded>(
                    { r in
                        // While `verify()` checks this forward, its target is checked as the
                        // forward's asker would check it: an initializer is not called.
                        if let depth = InitializerDryRun.checkingDepth(of: key, in: r) {
                            return try Self.checked(key, target: target, as: Forwarded.self) {
                                try InitializerDryRun.$checkingDepths.withValue(
                                    InitializerDryRun.checkingDepths + [depth]
                                ) { try r.value(for: target, observed: true) }
                            }
                        }
                        // Reported to an observer, if any, as the async forward's is (on either face).
                        guard let value = try r.value(for: target, observed: true) else {
                            throw Registration.missing(target)
                        }
                        guard let forwarded = value as? Forwarded else {
                            throw Registration.notImplemented(key, by: target)
                        }
                        return forwarded
                    }, key: key, scope: scope, site: site, completion: nil, forwardedTo: target)
            }
            return
        }
        let factory = Registration.Factory.async { r in
            // Checked, not built, as the synchronous forward's target is while `verify()` checks it.
            let value: (any Sendable)?
            if let depth = InitializerDryRun.checkingDepth(of: key, in: r.synchronous) {
                do {
                    value = try await InitializerDryRun.$checkingDepths.withValue(
                        InitializerDryRun.checkingDepths + [depth]
                    ) { try await r.value(for: target, observed: true) }
                } catch let error as InjectionError where InitializerDryRun.isChecked(error, key: target) {
                    throw InitializerDryRun.Checked()
                }
            } else {
                value = try await r.value(for: target, observed: true)  // reported to an observer, if any
            }
            guard let value else { throw Registration.missing(target) }
            guard value is Forwarded else { throw Registration.notImplemented(key, by: target) }
            return value
        }
        injector.store(scope: .transient, site: registration.site) { scope, site in
            Registration(key: key, scope: scope, factory: factory, site: site, forwardedTo: target)
        }
    }

    /// The forward `key`'s value, from `check` (its target's resolve while `verify()` checks
    /// the forward); `InitializerDryRun.Checked` when its target was checked, not built.
    private static func checked<Forwarded>(
        _ key: DependencyKey,
        target: DependencyKey,
        as type: Forwarded.Type,
        _ check: () throws -> Any?
    ) throws -> Forwarded {
        let value: Any?
        do {
            value = try check()
        } catch let error as InjectionError where InitializerDryRun.isChecked(error, key: target) {
            throw InitializerDryRun.Checked()
        }
        guard let value else { throw Registration.missing(target) }
        guard let forwarded = value as? Forwarded else { throw Registration.notImplemented(key, by: target) }
        return forwarded
    }

    /// Stores this registration, with `completion` run after its hooks, in place of this
    /// one, if it is still stored.
    fileprivate func completed(by completion: Registration.Completion, onMainActor: Bool = false) -> Registered<Value> {
        replaced { extras in
            extras.completion = extras.completion?.then(completion) ?? completion
            if onMainActor { extras.runsOnMainActor = true }
        }
    }

    /// Stores the registration stored now with its extras as `change` makes them, if it is a
    /// version of this one (this handle's, or one that another modifier made since: each call
    /// through one handle adds to the others, chained or not), keeping what it has created (a
    /// test double is never created by the registration it stands in for). Refused once the
    /// injector is sealed, as a `register` is: the registration stays as it is, and the
    /// observer hears of the refusal.
    fileprivate func replaced(applying change: (inout Registration.Extras) -> Void) -> Registered<Value> {
        var isRefused = false
        var modified: Registration?
        injector.registry.update { registry -> Entry? in
            guard case .factory(let current, var cache) = registry[registration.key],
                current.isModification(of: registration)
            else { return nil }
            isRefused = registry.isSealed
            guard !isRefused else { return nil }
            let version = current.modified(change)
            modified = version
            // A value created already is closed as the registration now says, in its place in the order.
            if case .strong(let value, _, let order) = cache {
                cache = .strong(value, PendingTeardown(of: value, producedBy: version, order: order), order: order)
            }
            return registry.replace(registration.key, with: .factory(version, cache))
        }
        guard !isRefused else {
            // As a `register` is refused: `install` throws it, else the observer hears of it.
            if Installation.current(into: injector)?.recordRefusal(of: registration.key) != true {
                injector.reportRefusal(of: registration.key)
            }
            return self
        }
        return modified.map { Registered(injector: injector, registration: $0) } ?? self
    }

    /// Makes test scopes use `double` in place of this registration's factory: a test that
    /// runs under this injector (in a child made by `withOverrides`, the `.injecting` trait or
    /// `InjectorTestCase`) gets the double, with the registration's scope, unless it registers
    /// one of its own. swift-dependencies' `testValue`.
    ///
    /// ```swift
    /// injector.register(Analytics.self, scope: .singleton) { _ in LiveAnalytics() }
    ///     .inTests { _ in SilentAnalytics() }
    /// ```
    ///
    /// The app's resolves are not touched. In a strict test scope a registration with a double
    /// needs nothing else. A singleton double is created once per test scope, and closed by the
    /// registration's ``teardown(_:)`` when the scope ends; a hook of ``initCompleted(_:)``
    /// does not run on it. `fileID` and `line` (leave the defaults) say
    /// where the double was registered, in messages.
    @discardableResult
    public func inTests(
        fileID: StaticString = #fileID,
        line: UInt = #line,
        _ double: @escaping @Sendable (DependencyInjector) throws -> Value
    ) -> Registered<Value> {
        let stand = standIn(fileID: fileID, line: line, double)
        return replaced { $0.setDouble(stand) }
    }

    /// Makes preview scopes (``DependencyInjector/previewScope()``) use `standIn` in place of
    /// this registration's factory: sample data for SwiftUI previews, screenshots or a demo
    /// mode, chosen by the code that runs, never guessed from the environment.
    ///
    /// ```swift
    /// injector.register((any OrdersAPI).self, scope: .singleton) { _ in LiveOrdersAPI() }
    ///     .inPreviews { _ in SampleOrdersAPI() }
    /// ```
    ///
    /// The stand-in has the registration's scope, and a singleton stand-in is created once
    /// per preview scope. The app's resolves are not touched. A test scope inside a preview
    /// scope uses its test doubles first, then the previews (a strict one refuses them).
    @discardableResult
    public func inPreviews(
        fileID: StaticString = #fileID,
        line: UInt = #line,
        _ standIn: @escaping @Sendable (DependencyInjector) throws -> Value
    ) -> Registered<Value> {
        let stand = self.standIn(fileID: fileID, line: line, standIn)
        return replaced { $0.setPreview(stand) }
    }

    /// ``inPreviews(fileID:line:_:)`` for a stand-in that runs on the main actor, as a
    /// `@MainActor` type's must (a view model). Off the main actor, a resolve that would build
    /// it throws ``InjectionError/requiresMainActor(_:path:)``; ``AsyncDependencyInjector``
    /// awaits the main actor for it.
    ///
    /// ```swift
    /// injector.mainActor.register(OrdersModel.self) { _ in OrdersModel() }
    ///     .inPreviews(mainActor: { _ in OrdersModel.sample() })
    /// ```
    @discardableResult
    public func inPreviews(
        fileID: StaticString = #fileID,
        line: UInt = #line,
        mainActor standIn: @escaping @MainActor (DependencyInjector) throws -> Value
    ) -> Registered<Value> {
        let key = registration.key
        let stand = self.standIn(fileID: fileID, line: line, onMainActor: true) { injector in
            try MainQueue.run(for: key) { try standIn(injector) }
        }
        return replaced { $0.setPreview(stand) }
    }

    /// A stand-in for this registration (a test double, a preview) made by `make` at `fileID:line`
    /// (on the main actor, if `onMainActor`): the same key and scope, in the same module.
    private func standIn(
        fileID: StaticString,
        line: UInt,
        onMainActor: Bool = false,
        _ make: @escaping @Sendable (DependencyInjector) throws -> Value
    ) -> Registration {
        let site = RegistrationSite(fileID: fileID, line: line, module: registration.site.module)
        return TypedRegistration(
            make, key: registration.key, scope: registration.scope, site: site, completion: nil,
            runsOnMainActor: onMainActor)
    }

    /// Lets strict test scopes use this registration as it is: for values and services that
    /// are safe in tests (a clock, a logger, a formatter).
    ///
    /// ```swift
    /// injector.register(Logger.self, scope: .singleton) { _ in ConsoleLogger() }.allowedInTests()
    /// ```
    ///
    /// Without it, a strict scope (`withOverrides(strict: true, …)`, `.injecting(.strict(…))`)
    /// refuses a registration of the app's that the test did not replace. A test scope's
    /// `allowing:` list allows types for that scope alone.
    @discardableResult
    public func allowedInTests() -> Registered<Value> {
        replaced { extras in
            // A double already stands in: nothing is left to allow.
            if case .double? = extras.inTests { return }
            extras.inTests = .allowed
        }
    }

    /// ``inTests(fileID:line:_:)`` for a double that runs on the main actor, as a
    /// `@MainActor` type's must (in a target whose default isolation is the main actor, every
    /// type's). Off the main actor, a resolve that would build it throws
    /// ``InjectionError/requiresMainActor(_:path:)``; ``AsyncDependencyInjector`` awaits the
    /// main actor for it.
    ///
    /// ```swift
    /// injector.mainActor.register(Haptics.self) { _ in LiveHaptics() }
    ///     .inTests(mainActor: { _ in SilentHaptics() })
    /// ```
    @discardableResult
    public func inTests(
        fileID: StaticString = #fileID,
        line: UInt = #line,
        mainActor double: @escaping @MainActor (DependencyInjector) throws -> Value
    ) -> Registered<Value> {
        let key = registration.key
        let stand = standIn(fileID: fileID, line: line, onMainActor: true) { injector in
            try MainQueue.run(for: key) { try double(injector) }
        }
        return replaced { $0.setDouble(stand) }
    }
}

/// The actor face's ``Registered``; its hooks, teardowns and stand-ins may await.
///
/// ```swift
/// await server.register(Router.self, scope: .singleton) { _ in Router() }
///     .initCompleted { r, router in router.routes = try await r.resolve(Routes.self) }
/// ```
public struct AsyncRegistered<Value>: Sendable {
    let base: Registered<Value>

    /// The actor face's ``Registered/key``; it behaves the same.
    public var key: DependencyKey { base.key }

    /// The actor face's ``Registered/initCompleted(_:)``, its hook async and given the run's ``AsyncResolver``.
    /// Only the actor face runs it: a synchronous resolve of the key throws.
    @discardableResult
    public func initCompleted(
        _ complete: @escaping @Sendable (AsyncResolver, Value) async throws -> Void
    ) -> AsyncRegistered<Value> {
        AsyncRegistered(
            base: base.completed(
                by: .async { r, value in
                    guard let value = value as? Value else { return }
                    try await complete(r, value)
                }))
    }

    /// The actor face's ``Registered/teardown(_:)``, for a closure that does not await; it behaves the same.
    @discardableResult
    public func teardown(_ close: @escaping @Sendable (Value) throws -> Void) -> AsyncRegistered<Value> {
        AsyncRegistered(base: base.teardown(close))
    }

    /// The actor face's ``Registered/teardown(mainActor:)``, for a `@MainActor` closure;
    /// ``AsyncDependencyInjector/close()`` awaits it on the main actor.
    @discardableResult
    public func teardown(_ close: @escaping @MainActor @Sendable (Value) throws -> Void) -> AsyncRegistered<Value>
    where Value: Sendable {
        AsyncRegistered(base: base.teardown(mainActor: close))
    }

    /// The actor face's ``Registered/teardown(mainActor:)``; ``AsyncDependencyInjector/close()`` awaits it on the main
    /// actor.
    @discardableResult
    public func teardown(mainActor close: @escaping @MainActor @Sendable (Value) throws -> Void)
        -> AsyncRegistered<Value>
    {
        AsyncRegistered(base: base.teardown(mainActor: close))
    }

    /// The actor face's ``Registered/teardown(_:)``, for a closure that may await; ``AsyncDependencyInjector/close()``
    /// awaits it.
    @discardableResult
    public func teardown(_ close: @escaping @Sendable (Value) async throws -> Void) -> AsyncRegistered<Value>
    where Value: Sendable {
        AsyncRegistered(
            base: base.replaced { extras in
                extras.setTeardown(.async(AsyncTeardown(close: close)))
            })
    }

    /// The actor face's ``Registered/implements(_:)``; it behaves the same.
    @discardableResult
    public func implements<each Forwarded>(_ types: repeat (each Forwarded).Type) -> AsyncRegistered<Value> {
        repeat base.forward(each types, name: base.registration.key.name)
        return self
    }

    /// The actor face's ``Registered/implements(_:name:)``; it behaves the same.
    @discardableResult
    public func implements<each Forwarded>(_ types: repeat (each Forwarded).Type, name: String?)
        -> AsyncRegistered<Value>
    {
        repeat base.forward(each types, name: name)
        return self
    }

    /// The actor face's ``Registered/inTests(fileID:line:_:)``, its double async and given the run's ``AsyncResolver``.
    @discardableResult
    public func inTests(
        fileID: StaticString = #fileID,
        line: UInt = #line,
        _ double: @escaping @Sendable (AsyncResolver) async throws -> Value
    ) -> AsyncRegistered<Value> where Value: Sendable {
        let stand = standIn(fileID: fileID, line: line, double)
        return AsyncRegistered(base: base.replaced { $0.setDouble(stand) })
    }

    /// The actor face's ``Registered/inPreviews(fileID:line:_:)``, its stand-in async and given the run's
    /// ``AsyncResolver``.
    @discardableResult
    public func inPreviews(
        fileID: StaticString = #fileID,
        line: UInt = #line,
        _ standIn: @escaping @Sendable (AsyncResolver) async throws -> Value
    ) -> AsyncRegistered<Value> where Value: Sendable {
        let stand = self.standIn(fileID: fileID, line: line, standIn)
        return AsyncRegistered(base: base.replaced { $0.setPreview(stand) })
    }

    /// A stand-in for this registration (a test double, a preview) made by `make` at `fileID:line`:
    /// the same key and scope, in the same module.
    private func standIn(
        fileID: StaticString,
        line: UInt,
        _ make: @escaping @Sendable (AsyncResolver) async throws -> Value
    ) -> Registration where Value: Sendable {
        let registration = base.registration
        let site = RegistrationSite(fileID: fileID, line: line, module: registration.site.module)
        return Registration(
            key: registration.key, scope: registration.scope, factory: .async(make), site: site)
    }

    /// The actor face's ``Registered/allowedInTests()``; it behaves the same.
    @discardableResult
    public func allowedInTests() -> AsyncRegistered<Value> {
        AsyncRegistered(base: base.allowedInTests())
    }
}
