/// One `register(_:name:scope:factory:)` call: the factory and its scope.
///
/// Its identity matters: a cached singleton is kept only while the registration that built it
/// is still the one stored under its key, and cycles are detected per registration (so a
/// child's override that decorates its parent's registration of the same key is no cycle).
final class Registration: Sendable {
    let key: DependencyKey
    let scope: Scope
    let make: @Sendable (DependencyInjector) throws -> Any

    init(key: DependencyKey, scope: Scope, make: @escaping @Sendable (DependencyInjector) throws -> Any) {
        self.key = key
        self.scope = scope
        self.make = make
    }
}

/// What an injector stores under a key.
enum Entry {
    /// A value registered with `register(_:as:name:)`: an already created singleton.
    case instance(Any, DependencyKey)
    /// A factory, with what it has produced so far for its scope.
    case factory(Registration, Cache)

    var key: DependencyKey {
        switch self {
        case .instance(_, let key): key
        case .factory(let registration, _): registration.key
        }
    }

    /// The value a resolve can return without running a factory.
    var readyValue: Any? {
        switch self {
        case .instance(let value, _): value
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
