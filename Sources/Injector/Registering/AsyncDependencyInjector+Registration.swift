extension AsyncDependencyInjector {
    /// The actor face's ``DependencyInjector/register(_:name:scope:fileID:line:factory:)-method``, its factory async
    /// and given the run's ``AsyncResolver``. A transient's factory runs in the caller's task; a singleton's (or
    /// weak instance's) in a task of the injector's, which the first caller's cancellation does not reach.
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

    /// The actor face's ``DependencyInjector/register(_:as:name:fileID:line:)``; it behaves the same.
    public func register<T: Sendable>(
        _ instance: T,
        as type: T.Type = T.self,
        name: String? = nil,
        fileID: StaticString = #fileID,
        line: UInt = #line
    ) {
        core.register(instance, as: type, name: name, fileID: fileID, line: line)
    }

    /// The actor face's ``DependencyInjector/unregister(_:name:)``; an async teardown of its value runs in a task
    /// that ``close()`` awaits.
    public func unregister<T>(_ type: T.Type, name: String? = nil) {
        core.unregister(type, name: name)
    }

    /// The actor face's ``DependencyInjector/isRegistered(_:name:)``; it behaves the same.
    public func isRegistered<T>(_ type: T.Type, name: String? = nil) async -> Bool {
        core.isRegistered(type, name: name)
    }
}
