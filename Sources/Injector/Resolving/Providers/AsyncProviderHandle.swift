/// A way to make a `Value` on demand from an ``AsyncDependencyInjector``: the actor's ``ProviderHandle``.
///
/// ```swift
/// actor LoginFlow {
///     let makeSession: AsyncProviderHandle<UserSession>
///
///     func logIn() async throws {
///         let session = try await makeSession()  // resolved now, not when LoginFlow was created
///     }
/// }
///
/// await injector.register(LoginFlow.self) { r in try await LoginFlow(makeSession: r.resolve()) }
/// ```
///
/// It works as a ``ProviderHandle`` does (each call resolves anew, so a handle breaks a
/// cycle; resolving `AsyncProviderHandle<Value>` needs no registration; or make one with
/// ``AsyncDependencyInjector/provider(for:name:)``), but its call awaits, so async factories run.
public struct AsyncProviderHandle<Value: Sendable>: Sendable {
    /// The injector each call resolves from.
    public let injector: AsyncDependencyInjector
    /// The name of the registration each call resolves, or `nil` for the unnamed one.
    public let name: String?

    /// A handle that resolves `Value` under `name` from `injector`.
    public init(injector: AsyncDependencyInjector, name: String? = nil) {
        self.injector = injector
        self.name = name
    }

    /// Resolves a `Value` now.
    ///
    /// - Throws: the errors of ``AsyncDependencyInjector/resolve(_:name:)``.
    public func callAsFunction() async throws(InjectionError) -> Value {
        try await injector.resolve(Value.self, name: name)
    }
}

extension AsyncProviderHandle: AsyncResolvableWithoutRegistration {
    static func made(by injector: AsyncDependencyInjector, name: String?) -> AsyncProviderHandle<Value> {
        AsyncProviderHandle(injector: injector, name: name)
    }
}
