extension DependencyInjector {
    /// Declares `type` (under `name`) as a value that each opened scope provides, such as the
    /// request a scope serves: resolves, `verify()` and ``graph()`` know the key without a
    /// scope in hand, and a value that outlives scopes which asks for it is a
    /// ``InjectionError/captiveDependency(_:path:holder:holderScope:)``.
    ///
    /// ```swift
    /// app.declareScoped(RequestContext.self)
    /// app.register(OrderHandler.self, scope: .scoped) { r in try OrderHandler(request: r.resolve()) }
    /// try app.verify()  // passes: each scope provides the RequestContext
    ///
    /// let request = app.openScope()
    /// request.register(RequestContext(id: 42))
    /// let handler = try request.resolve(OrderHandler.self)
    /// ```
    ///
    /// A scope that does not register one makes its resolves throw
    /// ``InjectionError/notProvidedByScope(_:path:declaredAt:)``.
    @discardableResult
    public func declareScoped<T>(
        _ type: T.Type,
        name: String? = nil,
        fileID: StaticString = #fileID,
        line: UInt = #line
    ) -> Registered<T> {
        let key = DependencyKey(type, name: name)
        let registration = store(scope: .scoped, fileID: fileID, line: line) { scope, site in
            TypedRegistration<T>(
                { _ throws(InjectionError) in
                    throw .notProvidedByScope(key, path: Self.runningPath(endingAt: key), declaredAt: site)
                }, key: key, scope: scope, site: site)
        }
        return Registered(injector: self, registration: registration)
    }

    /// The keys being resolved on either face, outermost first, ending with `key`.
    static func runningPath(endingAt key: DependencyKey) -> [DependencyKey] {
        let path = AsyncResolutionContext.keys + ResolutionContext.current.path
        return path.last == key ? path : path + [key]
    }

    /// Checks that this injector may hand out a value of `registration`, which is scoped, kept
    /// by `keeper`: no value that outlives the scope is asking for it, and the resolve runs in
    /// an opened scope. `context`: this thread's.
    func checkScoped(
        _ registration: Registration,
        keptBy keeper: DependencyInjector,
        in context: ResolutionContext = .current
    ) throws(InjectionError) {
        let holder = context.innermostKept ?? AsyncResolutionContext.frames.innermostKept
        // An argument cache (`register(_:caching:)`) keeps its values past the request too.
        if let holder, holder.isKeptPastOpenedScopes, !isRegistered(holder, within: keeper) {
            throw .captiveDependency(
                registration.key, path: Self.runningPath(endingAt: registration.key), holder: holder.key,
                holderScope: holder.keptLifetime)
        }
        guard keeper.opensScope else {
            throw .outsideScope(registration.key, path: Self.runningPath(endingAt: registration.key))
        }
    }

    /// Whether `registration` is stored in this injector or an ancestor up to `scope`: a
    /// singleton registered inside a scope lives no longer than the scope.
    private func isRegistered(_ registration: Registration, within scope: DependencyInjector) -> Bool {
        guard scope.opensScope else { return false }
        for injector in sequence(first: self, next: \.parent) {
            let stored = injector.registry.withLock { registry in
                if case .factory(let current, _)? = registry[registration.key] {
                    registration.isStored(as: current)
                } else {
                    false
                }
            }
            if stored { return true }
            if injector === scope { return false }
        }
        return false
    }

    /// `error`, thrown while `keeper` built `registration`'s kept value for a resolve through
    /// this injector, with a suggestion when what was missing is registered here but not
    /// where the keeper looks: a singleton of the app that needs a value of a child's.
    func explained(
        _ error: InjectionError,
        building registration: Registration,
        keptBy keeper: DependencyInjector
    ) -> InjectionError {
        guard keeper !== self, case .notRegistered(let missing, let path, var suggestions) = error,
            !suggestions.contains(.registeredBelowBuilder(registration.key)),
            lookup(missing) != nil, keeper.lookup(missing) == nil
        else { return error }
        suggestions.insert(.registeredBelowBuilder(registration.key), at: 0)
        return .notRegistered(missing, path: path, suggestions: suggestions)
    }
}

extension AsyncDependencyInjector {
    /// Declares `type` (under `name`) as a value that each opened scope provides; see
    /// ``DependencyInjector/declareScoped(_:name:fileID:line:)``.
    ///
    /// ```swift
    /// await server.declareScoped(RequestContext.self)
    /// let request = server.openScope()
    /// await request.register(RequestContext(id: 42))
    /// ```
    @discardableResult
    public func declareScoped<T: Sendable>(
        _ type: T.Type,
        name: String? = nil,
        fileID: StaticString = #fileID,
        line: UInt = #line
    ) -> AsyncRegistered<T> {
        AsyncRegistered(base: core.declareScoped(type, name: name, fileID: fileID, line: line))
    }
}
