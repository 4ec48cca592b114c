/// Two elements of one injector's map were registered under the same key: the resolve of the
/// map fails with this error as its `underlying` error, naming both registrations.
///
/// ```swift
/// app.register(into: [String: any Route].self, key: "/users") { _ in UsersRoute() }
/// app.register(into: [String: any Route].self, key: "/users") { _ in AdminUsersRoute() }
/// try app.resolve([String: any Route].self)  // throws: factoryFailed, DuplicateCollectionKey
/// ```
public struct DuplicateCollectionKey: Error, Sendable, CustomStringConvertible, ExplainedFailure {
    /// The map's key, `[K: T]`.
    public let collection: DependencyKey
    /// The duplicated key, as the registrations gave it.
    public let key: String
    /// Where the elements under that key were registered, in registration order.
    public let sites: [RegistrationSite]

    /// Says which key and where, and what to do.
    public var description: String { "\(problem) (\(fix))" }

    /// What is wrong, as the first line of the map's failed resolve says it (see `ExplainedFailure`).
    var problem: String {
        "two elements are registered under the key \(key), at " + sites.map(\.description).joined(separator: " and ")
    }

    /// What to do, as the "To fix" line of the map's failed resolve says it.
    var fix: String { "remove one, or give it another key" }
}
