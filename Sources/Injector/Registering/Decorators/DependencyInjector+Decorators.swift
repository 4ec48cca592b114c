extension DependencyInjector {
    /// Wraps every value of `type` (under `name`) that this injector, or a descendant of it,
    /// makes: retries, caching, logging or a test's spy, without touching the registration.
    ///
    /// ```swift
    /// app.register((any API).self, scope: .singleton) { r in try LiveAPI(session: r.resolve()) }
    /// app.decorate((any API).self) { r, inner in try RetryingAPI(inner, policy: r.resolve()) }
    /// app.decorate((any API).self) { _, inner in LoggingAPI(inner) }
    ///
    /// try app.resolve((any API).self)  // LoggingAPI(RetryingAPI(LiveAPI)), made once
    /// ```
    ///
    /// Decorators wrap the value where it is made, before its scope keeps it: a singleton is
    /// decorated once, and every resolve (and every key that ``Registered/implements(_:)``
    /// forwards to it) gets the decorated value. They stack in the order they were added, an
    /// ancestor's inside its descendants', the first one innermost; across modules, in the
    /// order the modules are installed. The order of `register` and `decorate` does not
    /// matter, and a re-registration keeps the decorators.
    ///
    /// A decorator follows the scope rule (see <doc:Scopes>): it applies to what its injector
    /// makes, and to what a descendant makes, so a test scope, which makes its own
    /// singletons, adds a spy without re-registering the service:
    ///
    /// ```swift
    /// try await app.withOverrides { test in
    ///     test.decorate((any API).self) { _, inner in SpyAPI(inner) }
    /// } operation: { … }
    /// ```
    ///
    /// A plain ``child()`` shares its ancestors' singletons as they are, so its decorators
    /// wrap only what it makes itself (transients, and singletons registered in it). A value
    /// registered with ``register(_:as:name:fileID:line:)`` is not made by the injector, so it
    /// is not decorated: register it with a factory to decorate it. A key that
    /// ``Registered/implements(_:)`` forwards is a transient of its own: decorate the
    /// implementation's key, whose value the forwarded keys get. A value cached by argument
    /// (``register(_:name:caching:teardown:fileID:line:factory:)``) is decorated once, before the
    /// cache keeps it.
    ///
    /// A value this injector already keeps for the key (its own, kept by the opened scope above
    /// it for a plain child's scoped registration, or its copy of an ancestor's in a test scope
    /// or an opened scope) is let go (and torn down), so that the next resolve is decorated;
    /// what injectors below it keep already (an opened or test scope's values, a plain child's
    /// own singletons) stays undecorated, for as long as they keep it. Add
    /// decorators at start-up: a value whose decorators are running when another is added may
    /// be kept without the new one. A failed `install` takes its
    /// decorators back and lets go of the values kept for the keys it decorated; a decorator
    /// that a resolve applied before the failure is kept (with what its closure captures) until
    /// the injector is released, as is each set of decorators replaced after resolves used it:
    /// a resolve applies them without retaining them. A decorator
    /// that throws fails the resolve like a failing factory; ``verify()`` runs decorators with
    /// the factories (and builds a registration made from an initializer that has some), and
    /// ``registrations`` lists them with their sites (``RegistrationInfo/decorators``).
    public func decorate<T>(
        _ type: T.Type,
        name: String? = nil,
        fileID: StaticString = #fileID,
        line: UInt = #line,
        _ decorator: @escaping @Sendable (DependencyInjector, T) throws -> T
    ) {
        let key = DependencyKey(type, name: name)
        add(.sync(TypedSyncDecorator(decorator, key: key)), to: key, fileID: fileID, line: line)
    }

    /// Stores `body` as the last decorator of `key` here (refused when sealed), then lets go
    /// of the values this injector keeps for the key, made without it.
    func add(_ body: Decorator.Body, to key: DependencyKey, fileID: StaticString, line: UInt) {
        let installation = Installation.current(into: self)
        let decorator = Decorator(
            body: body, site: RegistrationSite(fileID: fileID, line: line, module: installation?.module),
            installation: installation.map(ObjectIdentifier.init))
        let refused = registry.withLock { registry in
            guard !registry.isSealed else { return true }
            registry.add(decorator, for: key)
            return false
        }
        guard !refused else {
            if installation?.recordRefusal(of: key) != true { reportRefusal(of: key) }
            return
        }
        installation?.recordDecorator(of: key)
        // Made before the decorator, here or as this injector's copy of an ancestor's (a `.own`
        // child's singleton, an opened scope's scoped value): the next resolve makes a decorated one.
        var letGo = dropValues(of: key, heldBy: self)
        if let parent { letGo += dropValues(of: key, heldBy: parent) }
        tearDown(letGo)
        // A plain child's own scoped registration: the value the scope above keeps, undecorated.
        if case .factory(let own, _)? = registry.withLock({ $0[key] }) { letEnclosingScopeGo(of: own) }
    }

    /// Whether this injector or an ancestor may have decorators for `key`: a load per injector
    /// of the chain (see `TypeFilter`). This injector's inlined, for every factory run asks.
    @inline(__always)
    func mayDecorate(_ key: DependencyKey) -> Bool {
        mayDecorate(type: key.typeID)
    }

    /// `mayDecorate(_:)` of a key of `type`, for a caller that has the key in a registration:
    /// the type alone is read out of it, where the key would be copied, its name retained.
    @inline(__always)
    func mayDecorate(type: ObjectIdentifier) -> Bool {
        mayDecorate(bits: TypeFilter.bits(of: type))
    }

    /// `mayDecorate(_:)` of a key whose bits in the filters (`TypeFilter.bits(of:)`) are
    /// `bits`, for a caller that hands them on to `makeDecorated(_:bits:)`.
    @inline(__always)
    func mayDecorate(bits: UInt64) -> Bool {
        TypeFilter.mayHold(bits, in: decoratedTypes) || parent?.ancestorMayDecorate(bits: bits) == true
    }

    /// `mayDecorate(bits:)` of an ancestor, not inlined.
    private func ancestorMayDecorate(bits: UInt64) -> Bool {
        TypeFilter.mayHold(bits, in: decoratedTypes) || parent?.ancestorMayDecorate(bits: bits) == true
    }

    /// The filter of the types this injector has decorators for: published, or under the
    /// lock before `Synchronization`.
    @inline(__always)
    private var decoratedTypes: UInt64 {
        ready.decoratedTypes ?? registry.withLock { $0.decoratedTypes }
    }

    /// The decorators that wrap a value of `key` this injector makes, innermost first: its
    /// ancestors', then its own, each injector's in the order they were added. Only the
    /// injectors whose filter may hold the key are looked at, in their published lists.
    func decorators(of key: DependencyKey) -> [Decorator] {
        let bits = TypeFilter.bits(of: key.typeID)
        var found: [Decorator] = []
        var next: DependencyInjector? = self  // not `sequence(first:next: \.parent)`: a key path per step
        while let injector = next {
            next = injector.parent
            guard TypeFilter.mayHold(bits, in: injector.decoratedTypes),
                let own = injector.decoratorList._withUnsafeGuaranteedRef({ $0.decorators[key] })
            else { continue }
            found = found.isEmpty ? own : own + found
        }
        return found
    }

    /// This injector's decorators, as published (see `DecoratorList`): read with no lock but
    /// just after a change. Unretained: the list lives as long as this injector.
    @inline(__always)
    private var decoratorList: Unmanaged<DecoratorList> {
        ready.decoratorList ?? publishedDecoratorList()
    }

    /// `decoratorList` published under the lock; apart, off the path of every later run.
    @inline(never)
    private func publishedDecoratorList() -> Unmanaged<DecoratorList> {
        registry.withLock { $0.decoratorList() }
    }

    /// How a value of `key` this injector makes is decorated (see `makeDecorated(_:bits:)`).
    enum Wrapping {
        /// By no decorator (the filters said "maybe" for another type).
        case none
        /// By one injector's decorators, composed into this one, unretained: that injector
        /// (this one or an ancestor) keeps it while it lives.
        case composed(Unmanaged<SyncDecorator>)
        /// By several injectors' decorators, or one that is async: `wrap`.
        case chain
    }

    /// How a value of `key` this injector makes is decorated: a load per injector of the
    /// chain, and a look in the published list of each whose filter may hold the key.
    @inline(__always)
    func wrapping(of key: DependencyKey) -> Wrapping {
        wrapping(of: key, bits: TypeFilter.bits(of: key.typeID))
    }

    /// `wrapping(of:)` of `key`, whose bits in the filters are `bits`. This injector's own
    /// decorators are looked at first, out of the walk: a root injector has no other.
    @inline(__always)
    func wrapping(of key: DependencyKey, bits: UInt64) -> Wrapping {
        var found = Wrapping.none
        if TypeFilter.mayHold(bits, in: decoratedTypes) {
            switch decoratorList._withUnsafeGuaranteedRef({ $0.decoration(of: key) }) {
            case .none: break
            case .sync(let composed): found = .composed(composed)
            case .async: return .chain
            }
        }
        // Unretained: each injector is kept alive by the one below it, and this one by the caller.
        var next = parent.map(Unmanaged.passUnretained)
        while let injector = next {
            let decoration: DecoratorList.Decoration? = injector._withUnsafeGuaranteedRef { injector in
                next = injector.parent.map(Unmanaged.passUnretained)
                guard TypeFilter.mayHold(bits, in: injector.decoratedTypes) else { return nil }
                return injector.decoratorList._withUnsafeGuaranteedRef { $0.decoration(of: key) }
            }
            switch decoration {
            case nil, .none?: continue
            case .sync(let composed)?:
                guard case .none = found else { return .chain }
                found = .composed(composed)
            case .async?: return .chain
            }
        }
        return found
    }

    /// Wraps `value`, made by `maker` (this injector or a descendant, `current`) for `key`, in
    /// the decorators of `key` of this injector's ancestors, then in its own (each injector's
    /// composed into one, see `DecoratorList`): the innermost first. Only a whole value is
    /// decorated: a wrapper that failed before a decorator runs fails it; the caller checks
    /// after the last. `bits`: the key's in the filters.
    func wrap<Value>(
        _ value: inout Value,
        key: DependencyKey,
        bits: UInt64,
        madeBy maker: DependencyInjector,
        in context: ResolutionContext
    ) throws {
        if let parent { try parent.wrap(&value, key: key, bits: bits, madeBy: maker, in: context) }
        guard TypeFilter.mayHold(bits, in: decoratedTypes) else { return }
        let decorator: Unmanaged<SyncDecorator>
        switch decoratorList._withUnsafeGuaranteedRef({ $0.decoration(of: key) }) {
        case .none: return
        case .sync(let composed): decorator = composed
        case .async(let site): throw AsyncDecoratorOnSynchronousValue(site: site)
        }
        try context.throwCapturedFailure(building: value)
        // Alive while this injector is (see `DecoratorList`).
        value = try decorator.takeUnretainedValue().decorate(value, madeBy: maker, key: key)
    }

    /// `value`, made by this injector for `registration`, as its decorators make it (itself when
    /// it has none: a load per injector of the chain). One call in each factory run, whose
    /// frame is on the stack for every level of a chain (see `DeepGraphTests`). The transient
    /// fast path, which runs a `TypedRegistration`'s factory in place, decorates in its own
    /// run (see `makeDecorated(_:bits:)`). A registration
    /// whose factory decorates its own values (`decoratesOwnValues`) is not decorated again.
    /// Consumed: the undecorated value is handed back as it came, not copied.
    @inline(__always)
    func decoratedIfAny(_ value: consuming Any, madeFor registration: Registration, in context: ResolutionContext)
        throws -> Any
    {
        guard !registration.decoratesOwnValues, mayDecorate(registration.key) else { return value }
        let made = copy value
        do {
            return try decorated(consume value, key: registration.key, in: context)
        } catch {
            tearDownUnkept(made, madeBy: registration)
            throw error
        }
    }

    /// `value`, made by this injector for `key` by a factory that decorates its own values
    /// (one that caches by argument), as its decorators make it.
    func decoratedIfAny(_ value: Any, key: DependencyKey, in context: ResolutionContext) throws -> Any {
        guard mayDecorate(key) else { return value }
        return try decorated(value, key: key, in: context)
    }

    /// `value`, which this injector has just made for `key`, wrapped by the decorators of the
    /// key (as `current`, so that wrappers in what they build resolve from here; `isCurrent`:
    /// it is already); a wrapper that fails meanwhile fails it. Apart, for the stack.
    @inline(never)
    func decorated<Value>(
        _ value: Value,
        key: DependencyKey,
        in context: ResolutionContext,
        isCurrent: Bool = false
    ) throws -> Value {
        if case .none = wrapping(of: key) { return value }  // the filters' "maybe" was for another type
        var value = value
        let bits = TypeFilter.bits(of: key.typeID)
        if isCurrent || Self.current === self {
            try wrap(&value, key: key, bits: bits, madeBy: self, in: context)
        } else {
            try Self.$current.withValue(self) { try wrap(&value, key: key, bits: bits, madeBy: self, in: context) }
        }
        try context.throwCapturedFailure(building: value)
        return value
    }
}
