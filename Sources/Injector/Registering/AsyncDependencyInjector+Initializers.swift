extension AsyncDependencyInjector {
    /// The actor face's ``DependencyInjector/register(_:name:scope:fileID:line:initializer:)``, each parameter awaited.
    /// An ``AsyncResolver`` parameter gets the run's resolver, so `{ r in Keeper(resolver: r) }`, taken for this form,
    /// still works as a factory.
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
        core.noteParameters(repeat (each Parameter).self, except: AsyncResolver.self, of: registration)
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
        // What a closure factory is handed, `r`: no registration holds it.
        if P.self == AsyncResolver.self, let resolver = self as? P { return resolver }
        do {
            return try await resolve(P.self)
        } catch {
            throw error.requested(
                through: InjectedProperty(parameter: index, of: owner, registeredAt: site),
                at: frames.keys.count)
        }
    }
}
