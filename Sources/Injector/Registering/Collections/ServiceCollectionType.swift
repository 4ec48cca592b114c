/// `[T]` and `[K: T]`, the types of collections and maps of services, recognised from a key's
/// type (`any Any.Type`) when a message names it or suggests a fix, and when an element's name
/// says which map it belongs to.
///
/// `String(reflecting:)` prints `[any MyApp.Middleware].self` as `Swift.Array<MyApp.Middleware>`:
/// a generic's name that no one writes, which also loses the element's `any`. A key knows its
/// type only at run time, so a conformance is the way to reach the element type again.
protocol ServiceCollectionType {
    /// The type as code spells it, elements named as ``DependencyKey/typeName`` names them:
    /// `[any MyApp.Middleware]`, `[Swift.String: any MyApp.Route]`.
    static var spelledName: String { get }
    /// How code adds an element to it: `register(into: [any MyApp.Middleware].self)`.
    static var elementRegistration: String { get }
    /// A map's key type; `nil` for an array.
    static var keyType: (any Any.Type)? { get }
}

extension Array: ServiceCollectionType {
    static var spelledName: String { "[\(DependencyKey.name(of: Element.self))]" }
    static var elementRegistration: String { "register(into: \(spelledName).self)" }
    static var keyType: (any Any.Type)? { nil }
}

extension Dictionary: ServiceCollectionType {
    static var spelledName: String { "[\(DependencyKey.name(of: Key.self)): \(DependencyKey.name(of: Value.self))]" }
    static var elementRegistration: String { "register(into: \(spelledName).self, key: …)" }
    static var keyType: (any Any.Type)? { Key.self }
}
