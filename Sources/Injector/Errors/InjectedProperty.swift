/// A wrapped property that asked for a dependency: in an error's path, where an object that an
/// injector was building needed the key that follows it (see ``DependencyKey/property``).
///
/// ```swift
/// // Resolution path: MyApp.PlaceOrderUseCase.users (MyApp/UseCase.swift:25) → any MyApp.UserRepository → …
/// if let property = error.path.compactMap(\.property).first {
///     print(property.ownerTypeName, property.name ?? "?", property.line)  // MyApp.PlaceOrderUseCase users 25
/// }
/// ```
public struct InjectedProperty: Hashable, Sendable, CustomStringConvertible {
    /// The type that declares the property: module-qualified (`MyApp.PlaceOrderUseCase`) when
    /// the injector found the property in the object it built, else as the declaration names
    /// it (`PlaceOrderUseCase`).
    ///
    /// Built when read, as ``DependencyKey/typeName`` is: naming a type demangles it, which
    /// for a type nested deep (`N<N<…>>`) takes more stack than a failure that unwinds a chain
    /// too deep for its thread has left.
    public var ownerTypeName: String {
        if let ownerType { return DependencyKey.readable(String(reflecting: ownerType)) }
        return declaredContext ?? "?"
    }
    /// What the declaration names the owner (`#function` in it), when the type is not known.
    private let declaredContext: String?
    /// The property's name (`users`), when the injector found the property in the object it
    /// built; `nil` otherwise (the object was dropped, or held the property out of reach).
    public let name: String?
    /// The file that declares the property, as `#fileID` gives it: `MyApp/UseCase.swift`.
    public let fileID: String
    /// The line of the property's declaration.
    public let line: Int
    /// The type that declares the property, when found: to tell it from the key before it.
    let ownerType: (any Any.Type)?

    init(declaredAt site: DeclarationSite, ownerType: (any Any.Type)?, name: String?) {
        self.ownerType = ownerType
        self.name = name
        fileID = "\(site.fileID)"
        line = Int(site.line)
        declaredContext = site.context.map { "\($0)" }
    }

    /// Parameter `position` (from 1) of the initializer registered for `owner` at `site`
    /// (``DependencyInjector/register(_:name:scope:fileID:line:initializer:)``): named
    /// `init parameter 2`, at the registration's file and line.
    init(parameter position: Int, of owner: any Any.Type, registeredAt site: RegistrationSite) {
        ownerType = owner
        name = "init parameter \(position)"
        fileID = site.fileID ?? "?"
        line = site.line
        declaredContext = nil
    }

    /// `MyApp.PlaceOrderUseCase.users (MyApp/UseCase.swift:25)`; without a name,
    /// `PlaceOrderUseCase (MyApp/UseCase.swift:25)`.
    public var description: String {
        let property = name.map { "\(ownerTypeName).\($0)" } ?? ownerTypeName
        return "\(property) (\(fileID):\(line))"
    }

    /// Whether `key` names the type that declares the property: in a path, the owner's key
    /// and the property are shown as one step. Without the type, by the names.
    func isDeclared(by key: DependencyKey) -> Bool {
        if let ownerType { return ObjectIdentifier(ownerType) == key.typeID && key.name == nil }
        guard key.name == nil else { return false }
        let typeName = key.typeName
        return typeName == ownerTypeName || typeName.hasSuffix("." + ownerTypeName)
    }

    /// Equal when they describe the same declaration.
    public static func == (lhs: InjectedProperty, rhs: InjectedProperty) -> Bool {
        lhs.ownerTypeName == rhs.ownerTypeName && lhs.name == rhs.name && lhs.fileID == rhs.fileID
            && lhs.line == rhs.line
    }

    /// Hashes the declaration's file and line, and the names.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(ownerTypeName)
        hasher.combine(name)
        hasher.combine(fileID)
        hasher.combine(line)
    }
}

/// A key's ``DependencyKey/property``, boxed: most keys have none, and stay small.
final class RequestOrigin: Sendable {
    let property: InjectedProperty

    init(property: InjectedProperty) {
        self.property = property
    }
}
