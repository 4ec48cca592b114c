/// How long a registered factory's product lives.
///
/// ```swift
/// injector.register(Database.self, scope: .singleton) { _ in try Database.open() }
/// injector.register(Session.self, scope: .weak) { _ in Session() }
/// injector.register(Request.self) { _ in Request() }  // .transient
/// ```
///
/// An instance registered with ``DependencyInjector/register(_:as:name:)`` is a created singleton.
public enum Scope: Hashable, Sendable, CustomStringConvertible {
    /// A new value on every resolve. The default.
    case transient
    /// Created on the first resolve, then kept by the injector that holds the registration
    /// while it lives (or until the key is registered again or unregistered). The factory runs
    /// exactly once even when the first resolves race; if it throws, the next resolve retries.
    case singleton
    /// Shared while something else holds a strong reference to it; created again after the
    /// last owner lets go. Only class instances can be held weakly: others are ``transient``.
    case weak
    /// A singleton that ``DependencyInjector/install(_:)-(DependencyModule...)`` creates as soon
    /// as its modules are registered, so that a failing factory is reported at start-up (as in
    /// Guice's production stage). Registered outside `install`, it behaves as ``singleton``.
    case eagerSingleton

    /// The scope's name as written in code: `transient`, `singleton`, `weak` or `eagerSingleton`.
    public var description: String {
        switch self {
        case .transient: "transient"
        case .singleton: "singleton"
        case .weak: "weak"
        case .eagerSingleton: "eagerSingleton"
        }
    }
}
