/// What both module protocols, ``DependencyModule`` and ``AsyncDependencyModule``, share: the
/// scope of the module's registrations that name none.
///
/// ```swift
/// struct ServicesModule: DependencyModule {
///     var defaultScope: Scope? { .singleton }  // Swinject's defaultObjectScope, for this module
///
///     func register(in injector: DependencyInjector) {
///         injector.register(Database.self) { _ in Database() }  // a singleton
///         injector.register(Request.self, scope: .transient) { _ in Request() }
///     }
/// }
/// ```
public protocol ScopedModule {
    /// The scope of the module's registrations that name none; `nil` (the default) leaves
    /// them the injector's ``DependencyInjector/defaultScope``.
    var defaultScope: Scope? { get }
}

extension ScopedModule {
    /// No default scope of the module's own: registrations take the injector's.
    public var defaultScope: Scope? { nil }
}
