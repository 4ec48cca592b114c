/// What a registration is stored under: a type's identity plus an optional name.
///
/// Keys are equal when they name the same type (by identity, not spelling) and name:
/// `A.Config` and `B.Config` differ; `Int?` and `Optional<Int>` are the same key.
///
/// ```swift
/// let key = DependencyKey(String.self, name: "baseURL")
/// print(key)  // Swift.String named "baseURL"
/// ```
///
/// Messages show ``typeName``, which is module-qualified (`MyApp.FeatureA.Config`).
public struct DependencyKey: Hashable, Sendable, CustomStringConvertible {
    /// The registered type.
    public let type: any Any.Type
    /// The name that tells apart several registrations of one type, or `nil` for the unnamed one.
    public let name: String?
    /// Where the key was requested from, in an error's path (see ``property``); boxed, so that
    /// a key stays four words.
    private let origin: RequestOrigin?

    /// Creates the key for `type` and `name`.
    public init<T>(_ type: T.Type, name: String? = nil) {
        self.type = type
        self.name = name
        origin = nil
    }

    /// The key for `type`, a type known only at run time, and `name`, requested from `origin`.
    init(type: any Any.Type, name: String?, origin: RequestOrigin? = nil) {
        self.type = type
        self.name = name
        self.origin = origin
    }

    /// The identity of the type: with `name`, all that hashing and equality use.
    var typeID: ObjectIdentifier { ObjectIdentifier(type) }

    /// In an error's ``InjectionError/path``, the `@Inject` property whose resolution asked
    /// for this key, when the failure happened while an injector was building the object that
    /// declares it, or the initializer's parameter (named `init parameter 2`) of a
    /// registration made with `register(_:initializer:)`; `nil` elsewhere.
    ///
    /// ```swift
    /// for key in error.path {
    ///     if let property = key.property { print("\(key) was needed by \(property)") }
    /// }
    /// // MyApp.UserRepository was needed by MyApp.PlaceOrderUseCase.users (MyApp/UseCase.swift:25)
    /// ```
    ///
    /// It is not part of the key's identity: keys that differ only here are equal.
    public var property: InjectedProperty? { origin?.property }

    /// This key, requested through `property`.
    func requested(through property: InjectedProperty) -> DependencyKey {
        DependencyKey(type: type, name: name, origin: RequestOrigin(property: property))
    }

    /// The module-qualified name of the type, as `String(reflecting:)` prints it
    /// (`MyApp.PaymentService`); built when asked for, never on the resolution path.
    ///
    /// A `private`, `fileprivate` or function-local type is named as you find it in your code,
    /// marked: `MyApp.NetworkProviderKey (private)`, where `String(reflecting:)` prints
    /// `MyApp.(unknown context at $5641c6f98628).NetworkProviderKey`. An existential is spelled
    /// `any MyApp.PaymentService`, and an array or dictionary as code spells it:
    /// `[any MyApp.Middleware]`, where `String(reflecting:)` prints `Swift.Array<MyApp.Middleware>`.
    public var typeName: String { Self.name(of: type) }

    /// `type`'s name as messages print it: module-qualified, readable (see `readable(_:)`), an
    /// existential spelled `any P`, as code under `ExistentialAny` must spell it, and an array or
    /// dictionary as code spells it, `[any P]`, `[K: V]` (see `ServiceCollection.spelledName`).
    static func name(of type: any Any.Type) -> String {
        if let collection = type as? any ServiceCollection.Type, let spelled = collection.spelledName { return spelled }
        let name = readable(String(reflecting: type))
        return isExistential(type) ? "any " + name : name
    }

    /// Whether `type` is a protocol's existential (`any P`, `any P & Q`), not `Any` itself:
    /// its metatype is the protocol's `.Protocol`. Asked only for messages.
    static func isExistential(_ type: any Any.Type) -> Bool {
        guard type != Any.self, type != AnyObject.self else { return false }
        return String(describing: Swift.type(of: type)).hasSuffix(".Protocol")
    }

    /// How code names the type's metatype: `App.Config.self`, `(any App.P).self`,
    /// `[any App.P].self`.
    var typeExpression: String {
        Self.isExistential(type) ? "(\(typeName)).self" : "\(typeName).self"
    }

    /// The name as a call passes it after the type, `, name: "baseURL"`, for a fix's code;
    /// empty for an unnamed key.
    var nameArgument: String {
        name.map { ", name: \"\($0)\"" } ?? ""
    }

    /// `name` without the `(unknown context at $…).` that `String(reflecting:)` prints for the
    /// context of a private or local type, marked `(private)` if it had any.
    static func readable(_ name: String) -> String {
        let marker = "(unknown context at $"
        // Not `name.contains(marker)`: without Foundation, that overload needs macOS 13 / iOS 16.
        guard name.indices.contains(where: { name[$0...].starts(with: marker) }) else { return name }
        var result = ""
        var rest = Substring(name)
        while !rest.isEmpty {
            if rest.starts(with: marker), let close = rest.firstIndex(of: ")") {
                rest = rest[rest.index(after: close)...].drop { $0 == "." }  // the context and its dot
            } else {
                result.append(rest.removeFirst())
            }
        }
        return result + " (private)"
    }

    /// The type's module-qualified name, then the name in quotes: `Swift.String named "baseURL"`.
    public var description: String {
        description(typeName: typeName)
    }

    /// `description`, given the ``typeName`` (which is what costs).
    func description(typeName: String) -> String {
        guard let name else { return typeName }
        return "\(typeName) named \"\(name)\""
    }

    /// Whether two keys name the same type and the same name.
    public static func == (lhs: DependencyKey, rhs: DependencyKey) -> Bool {
        lhs.typeID == rhs.typeID && lhs.name == rhs.name
    }

    /// Hashes the type's identity and the name.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(typeID)
        hasher.combine(name)
    }
}
