/// One registration as ``DependencyInjector/registrations`` (or the `registrations` of an
/// ``AsyncDependencyInjector``) lists it: the key, how it was registered, whether its value
/// exists, and which injector holds it.
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
        /// An existing value, registered with ``DependencyInjector/register(_:as:name:fileID:line:)``.
        case instance
        /// A factory with its scope, registered with
        /// ``DependencyInjector/register(_:name:scope:fileID:line:factory:)-method``, or an async factory
        /// registered with the `register(_:name:scope:fileID:line:factory:)` of an ``AsyncDependencyInjector``.
        /// A factory with run-time arguments is ``Scope/transient``, unless it caches its values
        /// (``DependencyInjector/register(_:name:caching:teardown:fileID:line:factory:)``): then its
        /// scope is the cache's lifetime, a named scope spelled as written, `caching: .strong(limit: 50)`,
        /// as ``InjectionError/captiveDependency(_:path:holder:holderScope:)`` names it.
        case factory(Scope)

        /// `instance`, or the factory's scope (`transient`, `singleton`, …): `"\(info.kind)"`.
        public var description: String {
            switch self {
            case .instance: "instance"
            case .factory(let scope): scope.description
            }
        }
    }

    /// An injector that holds registrations, compared by identity.
    ///
    /// ```swift
    /// for info in child.registrations where info.owner == .injector(parent) { print(info.key) }
    /// ```
    public enum Owner: Hashable, Sendable {
        /// A ``DependencyInjector``: `info.owner == .injector(parent)`.
        case injector(DependencyInjector)
        /// An ``AsyncDependencyInjector``: `info.owner == .asyncInjector(parent)`.
        case asyncInjector(AsyncDependencyInjector)

        private var object: AnyObject {
            switch self {
            case .injector(let injector): injector
            case .asyncInjector(let injector): injector
            }
        }

        /// Whether both are the same injector: `info.owner == .injector(parent)`.
        public static func == (lhs: Owner, rhs: Owner) -> Bool {
            lhs.object === rhs.object
        }

        /// Hashes the injector's identity: `Set(injector.registrations.map(\.owner))`.
        public func hash(into hasher: inout Hasher) {
            hasher.combine(ObjectIdentifier(object))
        }
    }

    /// The key the registration is stored under: `info.key.typeName`.
    public let key: DependencyKey

    /// Whether it is an instance or a factory, and the factory's scope:
    /// `info.kind == .factory(.singleton)`.
    public let kind: Kind

    /// Whether a resolve through the injector that listed it would return an existing value
    /// (an instance, a created singleton, a weak instance held elsewhere; never a transient):
    /// `injector.registrations.filter(\.isCreated)`.
    public let isCreated: Bool

    /// The injector that holds the registration: the one that listed it or an ancestor, of
    /// the same kind: `info.owner == .injector(parent)`.
    public let owner: Owner

    /// Whether the registration is held by an ancestor of the injector that listed it:
    /// `child.registrations.filter { !$0.isInherited }` lists the child's overrides.
    public let isInherited: Bool

    /// The key whose registration this one forwards to (made by
    /// ``Registered/implements(_:)``), or `nil`.
    public let forwardedTo: DependencyKey?

    /// What answers for a registration in the injector that listed it, when not the
    /// registration itself.
    ///
    /// ```swift
    /// for info in app.previewScope().registrations where info.answeredBy == .preview { print(info.key) }
    /// ```
    public enum StandIn: Hashable, Sendable, CustomStringConvertible {
        /// Its test double (``Registered/inTests(fileID:line:_:)``), in a test scope.
        case testDouble
        /// Its preview stand-in (``Registered/inPreviews(fileID:line:_:)``), in a preview scope.
        case preview

        /// `test double` or `preview`.
        public var description: String {
            switch self {
            case .testDouble: "test double"
            case .preview: "preview"
            }
        }
    }

    /// Which stand-in answers for the registration in the injector that listed it (a test
    /// scope, a preview scope, or below one), or `nil` when the registration itself does.
    public let answeredBy: StandIn?

    /// Where the decorators that wrap the value a resolve through the injector that listed it
    /// gets were added, innermost first (see ``DependencyInjector/decorate(_:name:fileID:line:_:)``);
    /// empty when nothing decorates it: `info.decorators.count`.
    public let decorators: [RegistrationSite]

    /// A registration's description as ``DependencyInjector/registrations`` lists it.
    public init(
        key: DependencyKey,
        kind: Kind,
        isCreated: Bool,
        owner: Owner,
        isInherited: Bool,
        forwardedTo: DependencyKey? = nil,
        answeredBy: StandIn? = nil,
        decorators: [RegistrationSite] = []
    ) {
        self.key = key
        self.kind = kind
        self.isCreated = isCreated
        self.owner = owner
        self.isInherited = isInherited
        self.forwardedTo = forwardedTo
        self.answeredBy = answeredBy
        self.decorators = decorators
    }

    /// The scope its value lives in; an instance is an existing singleton: `info.scope == .singleton`.
    public var scope: Scope {
        switch kind {
        case .instance: .singleton
        case .factory(let scope): scope
        }
    }

    /// `MyApp.Database (singleton, created)`, `Swift.String named "baseURL" (instance, inherited)`,
    /// `MyApp.API (transient, inherited, answered by its preview)`.
    public var description: String {
        var traits = [kind.description]
        if isCreated, kind != .instance { traits.append("created") }
        if isInherited { traits.append("inherited") }
        if let forwardedTo { traits.append("forwards to \(forwardedTo)") }
        if let answeredBy { traits.append("answered by its \(answeredBy)") }
        if !decorators.isEmpty {
            traits.append("decorated \(decorators.count == 1 ? "once" : "\(decorators.count) times")")
        }
        return "\(key) (\(traits.joined(separator: ", ")))"
    }
}
