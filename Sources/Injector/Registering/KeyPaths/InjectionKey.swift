/// A key for a dependency that always has a value: its default, unless one is registered.
///
/// ```swift
/// private enum NetworkProviderKey: InjectionKey {
///     static var defaultValue: any NetworkProviding { LiveNetwork() }
/// }
///
/// extension InjectedValues {
///     var networkProvider: any NetworkProviding {
///         get { self[NetworkProviderKey.self] }
///         set { self[NetworkProviderKey.self] = newValue }
///     }
/// }
///
/// final class FeedScreen {
///     @Inject(\.networkProvider) var network: any NetworkProviding  // can never fail
/// }
/// ```
///
/// Tests override it through the injector, never a static:
/// `withOverrides({ $0.values.networkProvider = MockNetwork() }) { … }`.
public protocol InjectionKey {
    /// The type of the dependency.
    associatedtype Value
    /// The value used when no injector in the chain has a registration for this key.
    static var defaultValue: Value { get }
}
