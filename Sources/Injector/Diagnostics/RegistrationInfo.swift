/// One registration as ``DependencyInjector/registrations`` lists it: the key, how it was
/// registered, whether its value exists, and which injector holds it.
///
/// ```swift
/// for info in injector.registrations {
///     print(info)  // MyApp.Database (singleton, created)
/// }
/// ```
public struct RegistrationInfo: Sendable, Equatable, CustomStringConvertible {
    /// How a key was registered.
    ///
    /// ```swift
    /// if case .factory(.singleton) = info.kind { … }
    /// ```
    public enum Kind: Hashable, Sendable, CustomStringConvertible {
        /// An existing value, registered with ``DependencyInjector/register(_:as:name:)``.
        case instance
        /// A factory with its scope, registered with
        /// ``DependencyInjector/register(_:name:scope:factory:)-method``.
        case factory(Scope)

        /// `instance`, or the factory's scope: `transient`, `singleton` or `weak`
        /// (`"\(info.kind)"`).
        public var description: String {
            switch self {
            case .instance: "instance"
            case .factory(let scope): scope.description
            }
        }
    }

    /// The key the registration is stored under: `info.key.typeName`.
    public let key: DependencyKey

    /// Whether it is an instance or a factory, and the factory's scope:
    /// `info.kind == .factory(.singleton)`.
    public let kind: Kind

    /// Whether a resolve through the injector that listed it would return an existing value
    /// without running a factory: always for an instance, once created for a singleton, while
    /// held elsewhere for a weak instance, never for a transient:
    /// `injector.registrations.filter(\.isCreated)`.
    public let isCreated: Bool

    /// The injector that holds the registration, the one that listed it or an ancestor:
    /// `info.owner === parent`.
    public let owner: DependencyInjector

    /// Whether the registration is held by an ancestor of the injector that listed it:
    /// `child.registrations.filter { !$0.isInherited }` lists the child's overrides.
    public let isInherited: Bool

    /// The scope its value lives in; an instance is an existing singleton: `info.scope == .singleton`.
    public var scope: Scope {
        switch kind {
        case .instance: .singleton
        case .factory(let scope): scope
        }
    }

    /// `MyApp.Database (singleton, created)`, `Swift.String named "baseURL" (instance, inherited)`.
    public var description: String {
        var traits = [kind.description]
        if isCreated, kind != .instance { traits.append("created") }
        if isInherited { traits.append("inherited") }
        return "\(key) (\(traits.joined(separator: ", ")))"
    }

    /// Whether both describe the same key, registered the same way, in the same injector:
    /// `before == after` when nothing changed.
    public static func == (lhs: RegistrationInfo, rhs: RegistrationInfo) -> Bool {
        lhs.key == rhs.key && lhs.kind == rhs.kind && lhs.isCreated == rhs.isCreated
            && lhs.owner === rhs.owner && lhs.isInherited == rhs.isInherited
    }
}
