/// One `register(_:name:scope:factory:)` call on an ``AsyncDependencyInjector``: the async
/// factory and its scope.
///
/// As with the sync `Registration`, identity matters: a singleton is cached only while the
/// registration that built it is still the one stored under its key, and cycles are found per
/// registration (a child's override that decorates its parent's registration is no cycle).
final class AsyncRegistration: Sendable {
    let key: DependencyKey
    let scope: Scope
    let make: @Sendable (AsyncDependencyInjector) async throws -> any Sendable
    /// Turns a weakly held object back into the registered type; `nil` if it is not one.
    let reload: @Sendable (AnyObject) -> (any Sendable)?

    init<T: Sendable>(
        key: DependencyKey,
        scope: Scope,
        factory: @escaping @Sendable (AsyncDependencyInjector) async throws -> T
    ) {
        self.key = key
        self.scope = scope
        self.make = { injector in try await factory(injector) }
        self.reload = { object in object as? T }
    }
}

/// What an ``AsyncDependencyInjector`` stores under a key. Actor-isolated: it never leaves
/// the injector that stores it.
enum AsyncEntry {
    /// A value registered with `register(_:as:name:)`: an already created singleton.
    case instance(any Sendable)
    /// A factory, with what it has produced so far for its scope.
    case factory(AsyncRegistration, AsyncCache)
}

/// What a singleton or weak registration of an ``AsyncDependencyInjector`` has produced.
enum AsyncCache {
    case empty
    case strong(any Sendable)
    case weak(AsyncWeakReference)

    /// The cached value, or `nil` when there is none (or the weak one is gone).
    func value(reloadedBy registration: AsyncRegistration) -> (any Sendable)? {
        switch self {
        case .empty: nil
        case .strong(let value): value
        case .weak(let reference): reference.object.flatMap(registration.reload)
        }
    }
}

struct AsyncWeakReference {
    weak var object: AnyObject?
}

/// What a lookup in one injector found, in a form that may cross to another actor.
enum AsyncLookup: Sendable {
    /// A value ready to return: an instance or a cached singleton.
    case value(any Sendable)
    /// A factory to run (transient) or to ask its owner for (singleton, weak).
    case factory(AsyncRegistration, owner: AsyncDependencyInjector)
}
