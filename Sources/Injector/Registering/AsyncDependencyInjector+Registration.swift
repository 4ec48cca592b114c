extension AsyncDependencyInjector {
    /// Registers an async factory; see ``DependencyInjector/register(_:name:scope:fileID:line:factory:)-method``:
    /// `await injector.register(UserRepository.self) { r in try await UserRepository(database: r.resolve()) }`.
    ///
    /// The factory gets an ``AsyncResolver`` of its run (`r`). Registering the key again drops
    /// a singleton creation still running too (its value is not kept). A singleton's (or weak
    /// instance's) factory runs in a task of the injector's, not cancelled with the caller that
    /// asked first; a transient's runs in the caller's task.
    @discardableResult
    public func register<T: Sendable>(
        _ type: T.Type = T.self,
        name: String? = nil,
        scope: Scope? = nil,
        fileID: StaticString = #fileID,
        line: UInt = #line,
        factory: @escaping @Sendable (AsyncResolver) async throws -> T
    ) -> AsyncRegistered<T> {
        let registration = core.store(
            key: DependencyKey(type, name: name), scope: scope, factory: .async(factory), fileID: fileID, line: line)
        return AsyncRegistered(base: Registered(injector: core, registration: registration))
    }

    /// Registers `instance` as a singleton, as ``DependencyInjector/register(_:as:name:fileID:line:)`` does.
    public func register<T: Sendable>(
        _ instance: T,
        as type: T.Type = T.self,
        name: String? = nil,
        fileID: StaticString = #fileID,
        line: UInt = #line
    ) {
        core.register(instance, as: type, name: name, fileID: fileID, line: line)
    }

    /// Removes this injector's registration, as ``DependencyInjector/unregister(_:name:)`` does.
    /// It returns once a synchronous teardown of its value has run; an asynchronous one runs
    /// in a task, which ``close()`` awaits (as it awaits one of a value replaced by a new
    /// registration).
    public func unregister<T>(_ type: T.Type, name: String? = nil) {
        core.unregister(type, name: name)
    }

    /// Whether `type` under `name` is registered, as ``DependencyInjector/isRegistered(_:name:)`` says.
    public func isRegistered<T>(_ type: T.Type, name: String? = nil) async -> Bool {
        core.isRegistered(type, name: name)
    }
}
