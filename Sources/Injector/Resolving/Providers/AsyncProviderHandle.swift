/// The actor face's ``ProviderHandle``; each call awaits, so async factories run.
///
/// ```swift
/// struct LoginFlow { let makeSession: AsyncProviderHandle<UserSession> }
/// await injector.register(LoginFlow.self) { r in try await LoginFlow(makeSession: r.resolve()) }
/// let session = try await flow.makeSession()  // resolved now, not when the flow was made
/// ```
public struct AsyncProviderHandle<Value: Sendable>: Sendable {
    /// The actor face's ``ProviderHandle/injector``; it behaves the same.
    public let injector: AsyncDependencyInjector
    /// The actor face's ``ProviderHandle/name``; it behaves the same.
    public let name: String?

    /// The actor face's ``ProviderHandle/init(injector:name:)``; it behaves the same.
    public init(injector: AsyncDependencyInjector, name: String? = nil) {
        self.injector = injector
        self.name = name
    }

    /// The actor face's ``ProviderHandle/callAsFunction()``; it awaits async factories.
    public func callAsFunction() async throws(InjectionError) -> Value {
        try await injector.resolve(Value.self, name: name)
    }
}

extension AsyncProviderHandle: AsyncResolvableWithoutRegistration {
    static func made(by injector: AsyncDependencyInjector, name: String?) -> AsyncProviderHandle<Value> {
        AsyncProviderHandle(injector: injector, name: name)
    }
}
