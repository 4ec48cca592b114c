/// One `register(_:name:scope:factory:)` call: the factory and its scope.
///
/// Its identity matters: a cached singleton is kept only while the registration that built it
/// is still the one stored under its key, and cycles are detected per registration (so a
/// child's override that decorates its parent's registration of the same key is no cycle).
final class Registration: Sendable {
    let key: DependencyKey
    let scope: Scope
    let factory: Factory
    /// The module-qualified name of the module whose `register(in:)` made this registration.
    let module: String?

    /// How the registration builds its value.
    enum Factory: Sendable {
        /// `register(_:name:scope:factory:)`: needs only the injector.
        case plain(@Sendable (DependencyInjector) throws -> Any)
        /// A factory that takes run-time arguments, passed as one value of type
        /// `(First, (Rest...))` for the types in `argumentTypes`.
        case withArguments(
            argumentTypes: [any Any.Type],
            tupleType: ObjectIdentifier,
            make: @Sendable (DependencyInjector, Any) throws -> Any
        )
    }

    init(key: DependencyKey, scope: Scope, factory: Factory, module: String?) {
        self.key = key
        self.scope = scope
        self.factory = factory
        self.module = module
    }

    /// Runs the factory. `arguments` is what `resolve(_:name:arguments:_:)` passed; a plain
    /// factory ignores it.
    func build(with injector: DependencyInjector, arguments: Any) throws -> Any {
        switch factory {
        case .plain(let make): try make(injector)
        case .withArguments(_, _, let make): try make(injector, arguments)
        }
    }

    /// The argument types the factory declares; empty for a plain factory.
    var argumentTypes: [any Any.Type] {
        guard case .withArguments(let types, _, _) = factory else { return [] }
        return types
    }
}

/// What an injector stores under a key.
enum Entry {
    /// A value registered with `register(_:as:name:)`: an already created singleton.
    case instance(Any, DependencyKey, module: String?)
    /// A factory, with what it has produced so far for its scope.
    case factory(Registration, Cache)

    var key: DependencyKey {
        switch self {
        case .instance(_, let key, _): key
        case .factory(let registration, _): registration.key
        }
    }

    /// The module-qualified name of the module that made the registration, if any.
    var module: String? {
        switch self {
        case .instance(_, _, let module): module
        case .factory(let registration, _): registration.module
        }
    }

    /// Whether `install` must create the value before it returns.
    var isEager: Bool {
        guard case .factory(let registration, _) = self else { return false }
        return registration.scope == .eagerSingleton
    }

    /// The value a resolve can return without running a factory.
    var readyValue: Any? {
        switch self {
        case .instance(let value, _, _): value
        case .factory(_, let cache): cache.value
        }
    }
}

/// What a singleton or weak registration has produced.
enum Cache {
    case empty
    case strong(Any)
    case weak(WeakReference)

    var value: Any? {
        switch self {
        case .empty: nil
        case .strong(let value): value
        case .weak(let reference): reference.object
        }
    }
}

struct WeakReference {
    weak var object: AnyObject?
}
