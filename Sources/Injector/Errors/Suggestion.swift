/// A registration that is probably what the caller of a failed resolve meant.
///
/// ``InjectionError/notRegistered(_:path:suggestions:)`` carries these as data (for tools)
/// and spells them out in its description (for people).
public enum Suggestion: Hashable, Sendable, CustomStringConvertible {
    /// The requested type is registered, but under other names (`nil`: the unnamed one).
    case otherNames([String?])

    /// An instance (or a created singleton) registered under this key conforms to the
    /// requested type: it was probably registered as its concrete type, not as the protocol.
    case conformingRegistration(DependencyKey)

    /// A value of exactly the requested type is registered under this key, which names a
    /// protocol or superclass it conforms to: the caller probably meant to resolve that type.
    /// `register(StripePayments() as PaymentService)` then `resolve(StripePayments.self)`.
    case registeredAsSupertype(DependencyKey)

    /// A type with the same simple name (from another module or parent type) is registered here.
    case sameSimpleName(DependencyKey)

    /// The suggestion as a sentence.
    public var description: String {
        switch self {
        case .otherNames(let names):
            let listed = names.map { $0.map { "\"\($0)\"" } ?? "without a name" }.joined(separator: ", ")
            return "The same type is registered under other names: \(listed)."
        case .conformingRegistration(let key):
            return "\(key) is registered and conforms to the requested type; "
                + "register it as the requested type instead."
        case .registeredAsSupertype(let key):
            return "\(key) holds a value of the requested type; resolve \(key.typeName) instead."
        case .sameSimpleName(let key):
            return "\(key) has the same simple name but is another type."
        }
    }
}
