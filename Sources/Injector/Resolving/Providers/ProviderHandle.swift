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
/// Each call resolves `Value` (under the handle's name) from the handle's injector: a new
/// value for a transient, the shared one for a singleton. Creating a handle resolves nothing,
/// so it breaks a cycle: if `A` and `B` need each other, let `B` hold a `ProviderHandle<A>`.
///
/// Resolving `ProviderHandle<Value>` (through `@Inject` or `resolve`) needs no registration: it
/// returns a handle for the resolving injector. Or use ``DependencyInjector/provider(for:name:)``.
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

/// A type an injector makes without a registration (a ``ProviderHandle``), after a miss.
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
