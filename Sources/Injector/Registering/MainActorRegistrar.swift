extension DependencyInjector {
    /// Registers factories that run on the main actor, with no mark on their closures: what a
    /// target whose default isolation is the main actor (Xcode 26's app default) writes.
    ///
    /// ```swift
    /// injector.mainActor.register(Logger.self, scope: .singleton) { _ in ConsoleLogger() }
    /// injector.mainActor.register(CartStore.self) { r in try CartStore(catalog: r.resolve()) }
    /// ```
    ///
    /// The closures are `@MainActor`, so they may build main-actor types and use main-actor
    /// conformances. Main-actor code resolves these types without `await`; a resolve off the
    /// main actor throws ``InjectionError/requiresMainActor(_:path:)`` (see
    /// ``MainActorRegistrar/register(_:name:scope:fileID:line:factory:)``); the actor face
    /// (``AsyncDependencyInjector``) awaits the main actor for them.
    public var mainActor: MainActorRegistrar {
        MainActorRegistrar(injector: self)
    }
}

/// The registrations of an injector whose factories run on the main actor:
/// ``DependencyInjector/mainActor``, and what a ``MainActorDependencyModule`` registers into.
///
/// ```swift
/// injector.mainActor.register(Haptics.self) { _ in LiveHaptics() }
///     .inTests(mainActor: { _ in SilentHaptics() })
/// ```
///
/// Swift picks an overload without regard to isolation, so `register` on the injector cannot
/// tell a main-actor closure from another: this registrar has one `register`, whose closure
/// is always `@MainActor`.
public struct MainActorRegistrar: Sendable {
    /// The injector registered into.
    public let injector: DependencyInjector

    /// Registers a factory that runs on the main actor, for a `@MainActor` type, for `scope`
    /// (without one, the module's or the injector's default), under `name`.
    ///
    /// ```swift
    /// @MainActor final class SettingsModel {
    ///     init(store: SettingsStore) { … }
    /// }
    ///
    /// @MainActor func configure(_ injector: DependencyInjector) {
    ///     injector.mainActor.register(SettingsModel.self, scope: .singleton) { r in
    ///         try SettingsModel(store: r.resolve())
    ///     }
    ///     let model = try? injector.resolve(SettingsModel.self)  // no `await`, no `assumeIsolated`
    /// }
    /// ```
    ///
    /// Main-actor code (and `@Inject` in `@MainActor` classes) resolves the type like any
    /// other. A resolve off the main actor (off the main dispatch queue) throws
    /// ``InjectionError/requiresMainActor(_:path:)``, unless it is a singleton already created;
    /// ``AsyncDependencyInjector`` resolves it from any task, awaiting the main actor (not for a
    /// synchronous factory that needs it, which runs where it is asked).
    /// `fileID` and `line` (leave the defaults) say where the registration was made.
    @discardableResult
    public func register<T>(
        _ type: T.Type = T.self,
        name: String? = nil,
        scope: Scope? = nil,
        fileID: StaticString = #fileID,
        line: UInt = #line,
        factory: @escaping @MainActor (DependencyInjector) throws -> T
    ) -> Registered<T> {
        let key = DependencyKey(type, name: name)
        let registration = injector.store(scope: scope, fileID: fileID, line: line) { scope, site in
            TypedRegistration(
                { injector in try MainQueue.run(for: key) { try factory(injector) } }, key: key, scope: scope,
                site: site, completion: nil, runsOnMainActor: true)
        }
        return Registered(injector: injector, registration: registration)
    }

    /// Registers a `@MainActor` type's initializer as its factory, each parameter resolved by
    /// its type, as ``DependencyInjector/register(_:name:scope:fileID:line:initializer:)`` does:
    /// what a target whose default isolation is the main actor writes, where that form
    /// refuses a main-actor initializer.
    ///
    /// ```swift
    /// @MainActor final class CartModel {
    ///     init(store: CartStore, analytics: Analytics?) { … }
    /// }
    /// injector.mainActor.register(CartModel.self, initializer: CartModel.init)
    /// ```
    ///
    /// The initializer and its parameters' resolves run on the main actor, as
    /// ``register(_:name:scope:fileID:line:factory:)``'s factory does: a resolve off the main
    /// actor throws ``InjectionError/requiresMainActor(_:path:)`` before any parameter is
    /// made; ``AsyncDependencyInjector`` awaits the main actor for it.
    @discardableResult
    public func register<T, each Parameter>(
        _ type: T.Type = T.self,
        name: String? = nil,
        scope: Scope? = nil,
        fileID: StaticString = #fileID,
        line: UInt = #line,
        initializer: @escaping @MainActor (repeat each Parameter) throws -> T
    ) -> Registered<T> {
        let key = DependencyKey(type, name: name)
        return injector.register(key, scope: scope, fileID: fileID, line: line, onMainActor: true) {
            (parameters: repeat each Parameter) throws -> T in
            try Self.call(initializer, with: repeat each parameters, for: key)
        }
    }

    /// Calls `initializer` with `parameters`, on the main queue (the registration runs there).
    private static func call<T, each Parameter>(
        _ initializer: @MainActor (repeat each Parameter) throws -> T,
        with parameters: repeat each Parameter,
        for key: DependencyKey
    ) throws -> T {
        // One tuple, handed over as one value: `nonisolated(unsafe)` on a pack's tuple is not
        // honoured when a main-actor closure captures it (Swift 6.3.1).
        let parameters = (repeat each parameters)
        return try MainQueue.run(for: key, handing: parameters) { (parameters: (repeat each Parameter)) throws -> T in
            try initializer(repeat each parameters)
        }
    }
}

extension DependencyInjector {
    /// Whether resolving `registration` (held by `holder`, kept by `keeper`) runs code that
    /// only the main actor may run, which the actor face awaits there: it runs on the main actor
    /// and has no value kept yet (a created singleton, a live weak instance or a scope's value
    /// is read from any thread), or it forwards (``Registered/implements(_:)``) to one that does.
    func awaitsMainActor(
        _ registration: Registration,
        heldBy holder: DependencyInjector,
        keptBy keeper: DependencyInjector
    ) -> Bool {
        if let target = registration.forwardedTo {
            guard case .pending(let forwarded, let holder, let keeper) = locate(target) else { return false }
            return awaitsMainActor(forwarded, heldBy: holder, keptBy: keeper)
        }
        guard registration.runsOnMainActor else { return false }
        guard registration.scope.isKept,
            case .ready? = SingletonCreation.cached(registration, heldBy: holder, keptBy: keeper)
        else { return true }
        return false
    }

    /// Whether the registration of `key` here (or in the nearest ancestor with one) forwards
    /// (``Registered/implements(_:)``) to `target`.
    func forwards(_ key: DependencyKey, to target: DependencyKey) -> Bool {
        guard case .factory(let registration, _)? = lookup(key)?.entry else { return false }
        return registration.forwardedTo == target
    }
}
