extension DependencyInjector {
    /// Registers an initializer as the factory of `type`: each of its parameters is resolved
    /// by its type, so the registration names no dependency by hand.
    ///
    /// ```swift
    /// final class Checkout {
    ///     init(cart: Cart, payments: any PaymentService, analytics: Analytics?) { … }
    /// }
    /// injector.register(Checkout.self, initializer: Checkout.init)
    /// injector.register((any PaymentService).self, scope: .singleton, initializer: StripePayments.init)
    /// ```
    ///
    /// One form for any number of parameters (a parameter pack), where SwinjectAutoregistration
    /// has twenty overloads. A parameter of an optional type resolves as ``OptionalInject``
    /// does, to `nil` when nothing is registered for it; a ``ProviderHandle`` parameter
    /// (``AsyncProviderHandle`` on the actor face) resolves later, when called. A
    /// `DependencyInjector` parameter gets the injector that resolves, the factory's `r`
    /// (``AsyncResolver`` on the actor face). The rest is ``register(_:name:scope:fileID:line:factory:)-method``'s:
    /// the scope, the ``Registered`` value returned.
    ///
    /// The parameter types are known at registration, so ``graph()`` has the edges from
    /// `type` to each of them before any resolve (to an optional's once its type is
    /// registered: until then it resolves to `nil`, no missing registration). A parameter that
    /// cannot be resolved fails the resolve with its position in the path:
    /// `MyApp.Checkout.init parameter 2 (MyApp/Setup.swift:14) → any MyApp.PaymentService`.
    @discardableResult
    public func register<T, each Parameter>(
        _ type: T.Type = T.self,
        name: String? = nil,
        scope: Scope? = nil,
        fileID: StaticString = #fileID,
        line: UInt = #line,
        initializer: @escaping @Sendable (repeat each Parameter) throws -> T
    ) -> Registered<T> {
        register(DependencyKey(type, name: name), scope: scope, fileID: fileID, line: line, initializer: initializer)
    }

    /// What `register(_:name:scope:fileID:line:initializer:)` does, for `key`; with `onMainActor`,
    /// for the main-actor registrar's form: the whole factory, the parameters' resolves
    /// included, runs on the main actor, so that a resolve off it throws before any parameter
    /// is made.
    func register<T, each Parameter>(
        _ key: DependencyKey,
        scope: Scope?,
        fileID: StaticString,
        line: UInt,
        onMainActor: Bool = false,
        initializer: @escaping @Sendable (repeat each Parameter) throws -> T
    ) -> Registered<T> {
        let registration = store(scope: scope, fileID: fileID, line: line) { scope, site in
            let make: @Sendable (DependencyInjector) throws -> T = { r in
                let position = ParameterPosition()
                guard let depth = InitializerDryRun.checkingDepth(of: key, in: r) else {
                    return try initializer(
                        repeat r.parameter((each Parameter).self, at: position, of: T.self, site: site))
                }
                try InitializerDryRun.$checkingDepths.withValue(InitializerDryRun.checkingDepths + [depth]) {
                    repeat try r.checkParameter((each Parameter).self, at: position, of: T.self, site: site)
                }
                throw InitializerDryRun.Checked()
            }
            guard onMainActor else { return TypedRegistration(make, key: key, scope: scope, site: site) }
            return TypedRegistration(
                { r in try MainQueue.run(for: key) { try make(r) } }, key: key, scope: scope, site: site,
                completion: nil, runsOnMainActor: true)
        }
        noteParameters(repeat (each Parameter).self, except: DependencyInjector.self, of: registration)
        return Registered(injector: self, registration: registration)
    }

    /// The value of an initializer's next parameter, of `type`, whose owner `owner` was
    /// registered at `site`; a failure names the parameter in its path.
    func parameter<P>(
        _ type: P.Type,
        at position: ParameterPosition,
        of owner: Any.Type,
        site: RegistrationSite
    ) throws(InjectionError) -> P {
        let index = position.next()
        // What a closure factory is handed, `r`: no registration holds it.
        if P.self == DependencyInjector.self, let injector = self as? P { return injector }
        do {
            return try resolve(P.self)
        } catch {
            throw error.requested(
                through: InjectedProperty(parameter: index, of: owner, registeredAt: site),
                at: ResolutionContext.current.path.count)
        }
    }

    /// Keeps the keys that the parameters of `registration`'s initializer, of `types`, depend
    /// on, if it was stored (a sealed injector refuses it), for `graph()`; not a parameter of
    /// `resolver`, the type the face hands its factories, which gets the run's (see `parameter`).
    func noteParameters<each P>(
        _ types: repeat (each P).Type, except resolver: Any.Type, of registration: Registration
    ) {
        var parameters: [DependencyKey] = []
        for type in repeat each types {
            // As it is: `graph()` draws an optional, a provider handle, as what it wraps, or not at all.
            if type != resolver { parameters.append(DependencyKey(type)) }
        }
        registry.withLock { registry in
            guard case .factory(let current, _)? = registry[registration.key], current === registration else { return }
            registry.initializerParameters[registration.key] = parameters
        }
    }
}

/// Counts an initializer's parameters as they are resolved, left to right. A class: each
/// parameter's resolve in the pack expansion takes it, where an `inout` count cannot be.
/// `@unchecked Sendable`: one resolve uses it, one parameter after the other.
final class ParameterPosition: @unchecked Sendable {
    private var resolved = 0

    func next() -> Int {
        resolved += 1
        return resolved
    }
}

extension DependencyKey {
    /// The key an initializer's parameter of `type` depends on, whose check `verify()` looks
    /// for (see `InitializerDryRun`): a `T?` or a provider handle of `T` depends on `T`.
    static func parameter<P>(_ type: P.Type) -> DependencyKey {
        guard let wrapper = P.self as? any ParameterWrapping.Type else { return DependencyKey(type) }
        return DependencyKey(wrapper.wrappedType)
    }
}

/// A parameter type that stands for another in the graph: an optional, a provider handle.
protocol ParameterWrapping {
    static var wrappedType: any Any.Type { get }
}

extension Optional: ParameterWrapping {
    static var wrappedType: any Any.Type { Wrapped.self }
}

extension ProviderHandle: ParameterWrapping {
    static var wrappedType: any Any.Type { Value.self }
}

extension AsyncProviderHandle: ParameterWrapping {
    static var wrappedType: any Any.Type { Value.self }
}
