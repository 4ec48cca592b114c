public import Injector

/// What a strict test scope treats as the app's: the registrations a test must replace, unless
/// they are allowed or have a test double. See the `.injecting(_:_:async:)` trait.
///
/// ```swift
/// @Suite(.injecting(.strict(app: registerServices, allowing: [Logger.self])) {
///     $0.register(MockPayments() as any PaymentService)
/// })
/// struct CheckoutTests { … }
///
/// @Test(.injecting(.strict) { $0.register(MockPayments() as any PaymentService) })
/// func pays() throws { … }  // the app's registrations are those of `current` (`shared`)
/// ```
public struct StrictMode: Sendable {
    let app: @Sendable (DependencyInjector) throws -> Void
    let asyncApp: @Sendable (AsyncDependencyInjector) async throws -> Void
    let allowed: [any Any.Type]

    /// Strict over the registrations of `current` (usually the `shared` injectors).
    public static var strict: StrictMode { .strict() }

    /// Strict over the registrations that `app` and `asyncApp` make, in a scope of their own
    /// above each test's, and those of `current`; the registrations of `allowing`'s types are
    /// used as they are.
    public static func strict(
        app: @escaping @Sendable (DependencyInjector) throws -> Void = { _ in },
        asyncApp: @escaping @Sendable (AsyncDependencyInjector) async throws -> Void = { _ in },
        allowing: [any Any.Type] = []
    ) -> StrictMode {
        StrictMode(app: app, asyncApp: asyncApp, allowed: allowing)
    }
}
