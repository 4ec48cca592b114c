/// A way to make a `Value` on demand from an ``AsyncDependencyInjector``: the actor face's
/// ``ProviderHandle``.
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
/// Each call resolves `Value` (under the handle's name) from the injector the handle was made
/// by: a new value for a transient, the shared one for a singleton, awaiting an async factory.
/// Nothing is resolved when the handle is created, so a handle breaks a cycle, as a
/// ``ProviderHandle`` does.
///
/// A handle needs no registration of its own: resolving `AsyncProviderHandle<Value>` returns a
/// handle for the resolving injector. Make one directly with
/// ``AsyncDependencyInjector/provider(for:name:)``.
///
/// It is a type of its own because its call awaits: a ``ProviderHandle`` is called from
/// synchronous code, where an async factory cannot run.
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
