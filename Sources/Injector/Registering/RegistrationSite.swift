/// Where a registration was made: the file and line of the `register` call, and the module
/// whose `register(in:)` made it, if any. Messages name it, so that a reader finds the line.
///
/// ```swift
/// catch .notProvidedInTest(let key, _, let site) {
///     print("\(key) is the app's, registered at \(site)")  // MyApp/Services.swift:12 (in MyApp.AppModule)
/// }
/// ```
public struct RegistrationSite: Hashable, Sendable, CustomStringConvertible {
    /// The file of the `register` call, as `#fileID` gives it (`MyApp/Services.swift`); `nil`
    /// for a value stored by an assignment (`injector.values.x = …`, or to a `@Provider`
    /// property), which has no call site.
    public var fileID: String? { file.map { "\($0)" } }
    /// The line of the `register` call; 0 without a ``fileID``.
    public let line: Int
    /// The module-qualified name of the module being installed, if any.
    public let module: String?
    // A `StaticString`, turned into a `String` only when asked for: most paths are longer
    // than a `String` keeps inline, and registering must not allocate for a message.
    private let file: StaticString?
    /// What the registration made there is, which a strict test scope's refusal says how to
    /// stand in for: what can be called on it differs. Not part of the site's identity (`==`,
    /// `hash(into:)`).
    private(set) var shape = Shape.factory

    /// What a registration is, as far as a fix that modifies it goes.
    enum Shape {
        /// A factory, whose `Registered` value takes `.inTests` and `.allowedInTests()`.
        case factory
        /// A factory taking run-time arguments, which returns nothing to modify.
        case factoryTakingArguments
        /// A value registered as it is, which returns nothing to modify.
        case instance
    }

    init(fileID: StaticString?, line: UInt, module: String?) {
        file = fileID
        self.line = fileID == nil ? 0 : Int(line)
        self.module = module
    }

    /// This site, of a registration of `shape`.
    func of(_ shape: Shape) -> RegistrationSite {
        var site = self
        site.shape = shape
        return site
    }

    /// `MyApp/Services.swift:12 (in MyApp.AppModule)`; `an assignment` without a file.
    public var description: String {
        let place = fileID.map { "\($0):\(line)" } ?? "an assignment"
        return module.map { "\(place) (in \($0))" } ?? place
    }

    /// The `register` call's place, for an issue recorded there; `nil` without a file.
    var declarationSite: DeclarationSite? {
        file.map { DeclarationSite(fileID: $0, line: UInt(line)) }
    }

    /// Equal when they name the same file, line and module.
    public static func == (lhs: RegistrationSite, rhs: RegistrationSite) -> Bool {
        lhs.fileID == rhs.fileID && lhs.line == rhs.line && lhs.module == rhs.module
    }

    /// Hashes the file, line and module.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(fileID)
        hasher.combine(line)
        hasher.combine(module)
    }
}
