#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

// The hand-rolled registries the library is measured against. Each uses the lock the library
// uses (a heap-allocated `pthread_mutex_t` behind a closure-taking `withLock`), does the
// least work its scenario needs, and lives in this module, so the optimiser specialises it
// for the concrete types (the library's generic `resolve` is called across a module boundary
// and is not): that favours the baselines.

/// State behind a heap-allocated `pthread_mutex_t`, kept as the library's `Locked` keeps it
/// (the state behind a pointer too, so neither pays run-time exclusivity checks).
final class BaselineLocked<State>: @unchecked Sendable {
    // `state.pointee` is touched only between lock and unlock of `mutex`, inside `withLock`.
    private let state: UnsafeMutablePointer<State>
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    init(_ state: State) {
        self.state = .allocate(capacity: 1)
        self.state.initialize(to: state)
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
        state.deinitialize(count: 1)
        state.deallocate()
    }

    func withLock<Result>(_ body: (inout State) -> Result) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return body(&state.pointee)
    }
}

/// The plainest registry: a locked `[ObjectIdentifier: Any]` of ready values, read with `as? T`.
final class LockedDictionary: Sendable {
    private let storage = BaselineLocked<[ObjectIdentifier: Any]>([:])
    /// Where to look when this one has no value (the child fall-through baseline).
    let parent: LockedDictionary?

    init(parent: LockedDictionary? = nil) {
        self.parent = parent
    }

    func register<T>(_ value: T, as type: T.Type = T.self) {
        storage.withLock { $0[ObjectIdentifier(type)] = value }
    }

    func resolve<T>(_ type: T.Type = T.self) -> T? {
        let key = ObjectIdentifier(type)
        var registry = self
        while true {
            if let value = registry.storage.withLock({ $0[key] }) { return value as? T }
            guard let parent = registry.parent else { return nil }
            registry = parent
        }
    }
}

/// A type and a name, for the named baselines.
struct NamedKey: Hashable {
    let type: ObjectIdentifier
    let name: String
}

/// A locked `[NamedKey: Any]`: named lookup and registration.
final class NamedLockedDictionary: Sendable {
    private let storage = BaselineLocked<[NamedKey: Any]>([:])

    func register<T>(_ value: T, as type: T.Type = T.self, name: String) {
        storage.withLock { $0[NamedKey(type: ObjectIdentifier(type), name: name)] = value }
    }

    func resolve<T>(_ type: T.Type = T.self, name: String) -> T? {
        let key = NamedKey(type: ObjectIdentifier(type), name: name)
        return storage.withLock { $0[key] } as? T
    }
}

/// A locked `[ObjectIdentifier: factory]`: each resolve takes the factory out under the lock
/// and calls it outside (a factory resolves its own dependencies), then casts with `as? T`.
/// No scopes, no cycle detection, no resolution path, no errors: the bare minimum.
final class LockedFactories: Sendable {
    typealias Factory = @Sendable (LockedFactories) -> Any
    private let storage = BaselineLocked<[ObjectIdentifier: Factory]>([:])

    func register<T>(_ type: T.Type, factory: @escaping @Sendable (LockedFactories) -> T) {
        storage.withLock { $0[ObjectIdentifier(type)] = { factory($0) } }
    }

    func resolve<T>(_ type: T.Type = T.self) -> T? {
        let key = ObjectIdentifier(type)
        guard let factory = storage.withLock({ $0[key] }) else { return nil }
        return factory(self) as? T
    }
}
