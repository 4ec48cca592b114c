/// A way to make a `Value` on demand: JSR-330's `Provider<T>`.
///
/// ```swift
/// final class LoginFlow {
///     @Inject var makeSession: ProviderHandle<UserSession>
///
///     func logIn() throws {
///         let session = try makeSession()  // resolved now, not when LoginFlow was created
///     }
/// }
/// ```
///
/// Each call resolves `Value` (under the handle's name) from the injector the handle was
/// made by: a new value for a transient, the shared one for a singleton. Nothing is resolved
/// when the handle is created, so a handle breaks a cycle: if `A` needs `B` and `B` needs
/// `A`, let `B` hold a `ProviderHandle<A>` and call it after both exist.
///
/// A handle needs no registration of its own: resolving `ProviderHandle<Value>` (through
/// `@Inject` or `resolve`) returns a handle for the resolving injector. Make one directly with
/// ``DependencyInjector/provider(for:name:)``.
public struct ProviderHandle<Value>: Sendable {
    /// The injector each call resolves from.
    public let injector: DependencyInjector
    /// The name of the registration each call resolves, or `nil` for the unnamed one.
    public let name: String?

    /// A handle that resolves `Value` under `name` from `injector`.
    public init(injector: DependencyInjector, name: String? = nil) {
        self.injector = injector
        self.name = name
    }

    /// Resolves a `Value` now.
    ///
    /// - Throws: the errors of ``DependencyInjector/resolve(_:name:)-method``.
    public func callAsFunction() throws(InjectionError) -> Value {
        try injector.resolve(Value.self, name: name)
    }
}

extension ProviderHandle: ResolvableWithoutRegistration {
    static func made(by injector: DependencyInjector, name: String?) -> ProviderHandle<Value> {
        ProviderHandle(injector: injector, name: name)
    }
}

/// A type that an injector makes for any key of it without a registration (a
/// ``ProviderHandle``). Asked only after a lookup has found nothing.
protocol ResolvableWithoutRegistration {
    static func made(by injector: DependencyInjector, name: String?) -> Self
}

extension DependencyInjector {
    /// A handle that resolves `type` under `name` from this injector each time it is called.
    ///
    /// ```swift
    /// let makeSession = injector.provider(for: UserSession.self)
    /// let first = try makeSession()
    /// let second = try makeSession()  // a new one, if UserSession is transient
    /// ```
    public func provider<T>(for type: T.Type = T.self, name: String? = nil) -> ProviderHandle<T> {
        ProviderHandle(injector: self, name: name)
    }
}
