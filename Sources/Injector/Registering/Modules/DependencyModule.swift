/// A group of related registrations, installed together.
///
/// ```swift
/// struct NetworkingModule: DependencyModule {
///     func register(in injector: DependencyInjector) {
///         injector.register(HTTPClient.self, scope: .eagerSingleton) { _ in try URLSessionClient() }
///         injector.register(APIClient.self) { r in try LiveAPIClient(http: r.resolve()) }
///     }
/// }
///
/// try DependencyInjector.shared.install(NetworkingModule(), PaymentsModule())
/// ```
///
/// Feature packages each export a module; the app installs them at start-up. When two
/// modules register the same key, the last one installed wins, and
/// ``DependencyInjector/module(providing:name:)`` tells which one that was.
public protocol DependencyModule: ScopedModule {
    /// Registers the module's dependencies into `injector`.
    ///
    /// Throw to abandon the installation; ``DependencyInjector/install(_:)-(DependencyModule...)``
    /// then undoes every registration it made.
    func register(in injector: DependencyInjector) throws(InjectionError)
}
