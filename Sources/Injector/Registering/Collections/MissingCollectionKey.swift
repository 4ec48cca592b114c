/// An element of a map was registered without a key: the resolve of the map (and
/// ``DependencyInjector/verify()``) fails with this error as its `underlying` error, naming
/// the registration.
///
/// ```swift
/// app.register(into: [String: any Route].self) { _ in UsersRoute() }  // no `key:`
/// try app.resolve([String: any Route].self)  // throws: factoryFailed, MissingCollectionKey
/// ```
public struct MissingCollectionKey: Error, Sendable, CustomStringConvertible, ExplainedFailure {
    /// The map's key, `[K: T]`.
    public let collection: DependencyKey
    /// Where the element without a key was registered.
    public let site: RegistrationSite

    /// Says which registration and what to pass, for the message of the map's failed resolve.
    public var description: String { "\(problem) (\(fix))" }

    /// What is wrong, as the first line of the map's failed resolve says it (see `ExplainedFailure`).
    var problem: String { "the element registered at \(site) has no key, and every element of a map needs one" }

    /// What to do, as the "To fix" line of the map's failed resolve says it.
    var fix: String {
        "pass its key where it is registered: `injector.register(into: \(collection.typeExpression), key: …) { r in … }`"
    }
}
