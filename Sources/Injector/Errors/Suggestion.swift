/// A registration that is probably what the caller of a failed resolve meant.
///
/// ``InjectionError/notRegistered(_:path:suggestions:)`` carries these as data (for tools)
/// and spells them out in its description (for people). However many registrations there
/// are, a failed resolve lists at most five names and five registrations, closest first, and
/// counts the rest.
public enum Suggestion: Hashable, Sendable, CustomStringConvertible {
    /// The requested type is registered, but under other names (`nil`: the unnamed one): at
    /// most five of them, the closest to the requested name first, and how many more there are.
    ///
    /// ```swift
    /// // resolve(String.self, name: "timout") with "timeout" and "port" registered:
    /// .otherNames(["timeout", "port"], unlisted: 0)
    /// ```
    ///
    /// Closest is fewest characters added, removed, replaced or swapped. When the type has more
    /// than 1,000 other names, only those one such edit away are listed.
    case otherNames([String?], unlisted: Int = 0)

    /// An instance (or a created singleton) registered under this key conforms to the
    /// requested type: it was probably registered as its concrete type, not as the protocol.
    case conformingRegistration(DependencyKey)

    /// A value of exactly the requested type is registered under this key, which names a
    /// protocol or superclass it conforms to: the caller probably meant to resolve that type.
    /// `register(StripePayments() as PaymentService)` then `resolve(StripePayments.self)`.
    case registeredAsSupertype(DependencyKey)

    /// A type with the same simple name (from another module or parent type) is registered here.
    case sameSimpleName(DependencyKey)

    /// A concrete type registered with a factory (so no value says whether it conforms) that may
    /// be what a resolve of the protocol `requested` meant: its simple name begins or ends with
    /// the protocol's (`LiveHTTPClient` for `any HTTPClient`), or it is one of the few concrete
    /// types registered (three at most), other than those whose resolution asked for it.
    ///
    /// ```swift
    /// injector.register(LiveHTTPClient.self) { _ in LiveHTTPClient() }
    /// try injector.resolve((any HTTPClient).self)  // .possiblyConforming(LiveHTTPClient, requested: any HTTPClient)
    /// ```
    case possiblyConforming(DependencyKey, requested: DependencyKey)

    /// The key is registered in the injector the resolve started from, but the singleton
    /// (`builtBy`) whose factory asked for it is built and kept by an ancestor, with the
    /// ancestor's registrations, which do not include a child's.
    ///
    /// ```swift
    /// app.register(AuditLog.self, scope: .singleton) { r in try AuditLog(request: r.resolve()) }
    /// let request = app.openScope()
    /// request.register(RequestContext(id: 7))
    /// try request.resolve(AuditLog.self)  // .registeredBelowBuilder(AuditLog)
    /// ```
    case registeredBelowBuilder(DependencyKey)

    /// The key is registered in the injector the resolve started from, a child below an opened
    /// scope, but the `.scoped` value (`builtBy`) whose factory asked for it is built by the
    /// scope that keeps it, with the scope's registrations, which do not include a child's.
    ///
    /// ```swift
    /// app.register(Handler.self, scope: .scoped) { r in try Handler(context: r.resolve()) }
    /// let request = app.openScope()
    /// let child = request.child()
    /// child.register(RequestContext(id: 7))
    /// try child.resolve(Handler.self)  // .registeredBelowScope(Handler)
    /// ```
    case registeredBelowScope(DependencyKey)

    /// More registrations could be what was meant than a message lists: this many more than
    /// the five suggestions before it.
    case unlistedRegistrations(Int)

    /// The resolve passed run-time arguments of these types (module-qualified names), which
    /// the missing registration's factory is to take.
    ///
    /// ```swift
    /// try injector.resolve(UserSession.self, arguments: 42)  // nothing registered
    /// // .registerTakingArguments(["Swift.Int"]): register { (r, argument: Swift.Int) in … }
    /// ```
    case registerTakingArguments([String])

    /// The `implements` that makes `registered` answer `requested`: it forwards under the
    /// registration's own name unless given another (`nil`: unnamed).
    static func implementsCall(of registered: DependencyKey, answering requested: DependencyKey) -> String {
        guard registered.name != requested.name else { return "`.implements(\(requested.typeExpression))`" }
        let name = requested.name.map { "\"\($0)\"" } ?? "nil"
        return "`.implements(\(requested.typeExpression), name: \(name))`"
    }

    /// The suggestion as a sentence.
    public var description: String {
        switch self {
        case .otherNames(let names, let unlisted):
            guard !names.isEmpty else {
                return "The same type is registered under \(unlisted) other names, none of them close to this one."
            }
            var listed = names.map { $0.map { "\"\($0)\"" } ?? "without a name" }
            if unlisted > 0 { listed.append("and \(unlisted) more") }
            return "The same type is registered under other names: \(listed.joined(separator: ", "))."
        case .conformingRegistration(let key):
            return "\(key) is registered and conforms to the requested type; "
                + "register it as the requested type instead."
        case .registeredAsSupertype(let key):
            return "\(key) holds a value of the requested type; resolve \(key.typeName) instead."
        case .sameSimpleName(let key):
            return "\(key) has the same simple name but is another type."
        case .possiblyConforming(let key, let requested):
            return "\(key) is registered with a factory; if it conforms to \(requested.typeName), add "
                + "\(Self.implementsCall(of: key, answering: requested)) to its registration."
        case .unlistedRegistrations(let count):
            return "\(count) more registrations like the ones above are not listed."
        case .registerTakingArguments(let types):
            return "The resolve passed arguments (\(types.joined(separator: ", "))), "
                + "which the registration's factory must take."
        case .registeredBelowScope(let builder):
            return "It is registered in the injector the resolve started from, but \(builder) is `.scoped`: "
                + "its value is built by the opened scope that keeps it, whose registrations cannot see a child's."
        case .registeredBelowBuilder(let builder):
            return "It is registered in the injector the resolve started from, but \(builder) is a singleton "
                + "built by an ancestor with the ancestor's own registrations, which cannot see a child's."
        }
    }
}
