/// Two elements of one injector's map were registered under the same key: the resolve of the
/// map fails with this error as its `underlying` error, naming both registrations.
///
/// ```swift
/// app.register(into: [String: any Route].self, key: "/users") { _ in UsersRoute() }
/// app.register(into: [String: any Route].self, key: "/users") { _ in AdminUsersRoute() }
/// try app.resolve([String: any Route].self)  // throws: factoryFailed, DuplicateCollectionKey
/// ```
public struct DuplicateCollectionKey: Error, Sendable, CustomStringConvertible {
    /// The map's key, `[K: T]`.
    public let collection: DependencyKey
    /// The duplicated key, as the registrations gave it.
    public let key: String
    /// Where the elements under that key were registered, in registration order.
    public let sites: [RegistrationSite]

    /// Says which key and where, for the message of the map's failed resolve.
    public var description: String {
        "two elements are registered under the key \(key), at "
            + sites.map(\.description).joined(separator: " and ")
            + " (remove one, or give it another key)"
    }
}
