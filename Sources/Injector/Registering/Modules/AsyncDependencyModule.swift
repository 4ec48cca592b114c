/// A group of related registrations for an ``AsyncDependencyInjector``, installed together:
/// the async counterpart of ``DependencyModule``.
///
/// ```swift
/// struct PersistenceModule: AsyncDependencyModule {
///     func register(in injector: AsyncDependencyInjector) async {
///         await injector.register(Database.self, scope: .eagerSingleton) { _ in try await Database.connect() }
///         await injector.register(UserRepository.self) { r in try await UserRepository(database: r.resolve()) }
///     }
/// }
///
/// try await server.install(PersistenceModule(), MailModule())
/// ```
public protocol AsyncDependencyModule: ScopedModule, Sendable {
    /// Registers the module's dependencies into `injector`.
    ///
    /// Throw to abandon the installation; ``AsyncDependencyInjector/install(_:)-(AsyncDependencyModule...)``
    /// then undoes every registration it made.
    func register(in injector: AsyncDependencyInjector) async throws(InjectionError)
}
