extension AsyncDependencyInjector {
    /// Registers `initializer` as the factory of `type`, each parameter resolved and awaited, as
    /// ``DependencyInjector/register(_:name:scope:fileID:line:initializer:)`` does:
    /// `await server.register(OrderService.self, scope: .singleton, initializer: OrderService.init)`.
    @discardableResult
    public func register<T: Sendable, each Parameter: Sendable>(
        _ type: T.Type = T.self,
        name: String? = nil,
        scope: Scope? = nil,
        fileID: StaticString = #fileID,
        line: UInt = #line,
        initializer: @escaping @Sendable (repeat each Parameter) throws -> T
    ) -> AsyncRegistered<T> {
        let key = DependencyKey(type, name: name)
        let registration = core.store(scope: scope, fileID: fileID, line: line) { scope, site in
            Registration(
                key: key, scope: scope,
                factory: .async { r in
                    let position = ParameterPosition()
                    guard let depth = InitializerDryRun.checkingDepth(of: key, in: r.synchronous) else {
                        return try initializer(
                            repeat await r.parameter((each Parameter).self, at: position, of: T.self, site: site))
                    }
                    try await InitializerDryRun.$checkingDepths.withValue(InitializerDryRun.checkingDepths + [depth]) {
                        repeat try await r.checkParameter((each Parameter).self, at: position, of: T.self, site: site)
                    }
                    throw InitializerDryRun.Checked()
                }, site: site)
        }
        var parameters: [DependencyKey] = []
        repeat parameters.append(DependencyKey.parameter((each Parameter).self))
        core.noteParameters(parameters, of: registration)
        return AsyncRegistered(base: Registered(injector: core, registration: registration))
    }
}

extension AsyncResolver {
    /// `DependencyInjector.parameter(_:at:of:site:)`, awaited.
    func parameter<P: Sendable>(
        _ type: P.Type,
        at position: ParameterPosition,
        of owner: Any.Type,
        site: RegistrationSite
    ) async throws(InjectionError) -> P {
        let index = position.next()
        do {
            return try await resolve(P.self)
        } catch {
            throw error.requested(
                through: InjectedProperty(parameter: index, of: owner, registeredAt: site),
                at: frames.keys.count)
        }
    }
}
