/// The actor face's ``DependencyModule``; its ``register(in:)`` takes an ``AsyncDependencyInjector`` and may await.
public protocol AsyncDependencyModule: ScopedModule, Sendable {
    /// The actor face's ``DependencyModule/register(in:)``; it may await.
    func register(in injector: AsyncDependencyInjector) async throws(InjectionError)
}
