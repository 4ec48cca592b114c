/// The actor face's ``ProviderHandle``: each call resolves `Value` anew (so a handle breaks a cycle), and awaits,
/// so async factories run. Resolving `AsyncProviderHandle<Value>` needs no registration.
///
/// ```swift
/// struct LoginFlow { let makeSession: AsyncProviderHandle<UserSession> }
/// await injector.register(LoginFlow.self) { r in try await LoginFlow(makeSession: r.resolve()) }
/// let session = try await flow.makeSession()  // resolved now, not when the flow was made
/// ```
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
