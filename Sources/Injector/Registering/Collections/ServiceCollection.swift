/// A collection that modules add to: `[T]`, whose elements come in the order they were
/// registered, or `[Key: T]`, whose entries are registered by key. `Array` and `Dictionary`
/// adopt it, so that one `register(into:)` takes either:
///
/// ```swift
/// app.register(into: [any Middleware].self) { _ in RequestLogging() }
/// app.register(into: [String: any Route].self, key: "/users") { _ in UsersRoute() }
/// ```
///
/// The injector gathers arrays and dictionaries only: a type of your own that adopts the
/// protocol compiles, but resolving it fails, saying so.
public protocol ServiceCollection {
    /// What one registration adds, the type its factory returns: an array's `Element`, a map's
    /// `Value`.
    ///
    /// ```swift
    /// app.register(into: [any Middleware].self) { _ in RequestLogging() }  // any Middleware
    /// ```
    associatedtype Contribution
    /// What an entry is registered under (`register(into:key:…)`, which requires it
    /// `Sendable`): a map's `Key`; `Never` for an array, whose elements have no key, so that
    /// `key:` takes nothing but `nil` there.
    ///
    /// ```swift
    /// app.register(into: [String: any Route].self, key: "/users") { _ in UsersRoute() }  // String
    /// ```
    associatedtype ContributionKey: Hashable
}

extension Array: ServiceCollection {
    /// An array's contribution is an element: `[any Middleware].Contribution` is `any Middleware`.
    public typealias Contribution = Element
    /// An array's elements have no key: `[any Middleware].ContributionKey` is `Never`.
    public typealias ContributionKey = Never
}

extension Dictionary: ServiceCollection {
    /// A map's contribution is an entry's value: `[String: any Route].Contribution` is `any Route`.
    public typealias Contribution = Value
    /// A map's entries are registered under its keys: `[String: any Route].ContributionKey` is `String`.
    public typealias ContributionKey = Key
}

// `[T]` and `[K: T]` recognised from a key's type (`any Any.Type`) when a message names it or
// suggests a fix, and when an element's name says which map it belongs to.
//
// `String(reflecting:)` prints `[any MyApp.Middleware].self` as `Swift.Array<MyApp.Middleware>`:
// a generic's name that no one writes, which also loses the element's `any`. A key knows its
// type only at run time, so the conformance is the way to reach the element type again.
extension ServiceCollection {
    /// Whether this is `[Contribution]`, which the injector gathers as an array.
    static var isArray: Bool { Self.self == [Contribution].self }

    /// Whether this is `[ContributionKey: Contribution]`, which the injector gathers as a map.
    static var isMap: Bool { Self.self == [ContributionKey: Contribution].self }

    /// A map's key type; `nil` for an array.
    static var keyType: (any Any.Type)? { isMap ? ContributionKey.self : nil }

    /// The type as code spells it, elements named as ``DependencyKey/typeName`` names them:
    /// `[any MyApp.Middleware]`, `[Swift.String: any MyApp.Route]`; `nil` for a type of one's
    /// own that adopts the protocol.
    static var spelledName: String? {
        let contribution = DependencyKey.name(of: Contribution.self)
        if isArray { return "[\(contribution)]" }
        if isMap { return "[\(DependencyKey.name(of: ContributionKey.self)): \(contribution)]" }
        return nil
    }

    /// How code adds an element to it: `register(into: [any MyApp.Middleware].self)`,
    /// `register(into: [Swift.String: any MyApp.Route].self, key: …)`.
    static var elementRegistration: String {
        let spelled = spelledName ?? DependencyKey.name(of: Self.self)
        return "register(into: \(spelled).self\(isMap ? ", key: …" : ""))"
    }
}

/// The failure of a collection whose type adopts ``ServiceCollection`` but is neither an array
/// nor a dictionary, which are all the injector gathers.
struct UngatheredCollection: ExplainedFailure, CustomStringConvertible {
    let type: DependencyKey

    var problem: String { "it adopts ServiceCollection, but the injector gathers arrays and dictionaries only" }

    var fix: String {
        "register into an array or a dictionary instead: `register(into: [T].self)`, "
            + "`register(into: [Key: T].self, key: …)`"
    }

    var description: String { "\(type.typeName) \(problem) (\(fix))" }
}
