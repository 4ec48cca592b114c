/// A group of registrations whose factories run on the main actor, installed on the main
/// actor: a module of an app whose types are main-actor types (in Xcode 26's app targets,
/// every type is), written with no mark on any closure.
///
/// ```swift
/// struct ShopModule: MainActorDependencyModule {
///     func register(in registrar: MainActorRegistrar) {
///         registrar.register((any CatalogAPI).self) { _ in LiveCatalog() }
///         registrar.register(CartStore.self, scope: .singleton) { r in try CartStore(catalog: r.resolve()) }
///     }
/// }
///
/// try injector.install(ShopModule())  // on the main actor
/// ```
///
/// Installed as a ``DependencyModule`` is, with the same rules (a default scope, once per
/// installation, all or nothing); only its `register(in:)` runs on the main actor.
public protocol MainActorDependencyModule: ScopedModule {
    /// Registers the module's main-actor factories through `registrar`.
    @MainActor func register(in registrar: MainActorRegistrar) throws(InjectionError)
}
