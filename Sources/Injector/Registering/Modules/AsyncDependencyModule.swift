/// The actor face's ``DependencyModule``; its ``register(in:)`` takes an ``AsyncDependencyInjector`` and may await.
///
/// ```swift
/// struct PersistenceModule: AsyncDependencyModule {
///     func register(in injector: AsyncDependencyInjector) async {
///         await injector.register(Database.self, scope: .eagerSingleton) { _ in try await Database.connect() }
///     }
/// }
/// ```
public protocol AsyncDependencyModule: ScopedModule, Sendable {
    /// The actor face's ``DependencyModule/register(in:)``; it may await.
    func register(in injector: AsyncDependencyInjector) async throws(InjectionError)
}
