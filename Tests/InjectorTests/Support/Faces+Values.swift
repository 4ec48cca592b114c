import Injector
import Testing

// The operations of run-time arguments, key-path values, provider handles and main-actor
// factories, for both faces (see `Faces.swift`).

extension FaceInjector {
    /// Registers a factory that takes run-time arguments and makes the value from them alone.
    func register<T: Sendable, First: Sendable, each Rest: Sendable>(
        _ type: T.Type,
        name: String? = nil,
        arguments make: @escaping @Sendable (First, repeat each Rest) throws -> T
    ) async {
        switch base {
        case .sync(let injector):
            injector.register(type, name: name) { (_, first: First, rest: repeat each Rest) in
                try make(first, repeat each rest)
            }
        case .async(let injector):
            await injector.register(type, name: name) { (_, first: First, rest: repeat each Rest) in
                try make(first, repeat each rest)
            }
        }
    }

    /// Registers a factory that takes run-time arguments and resolves `dependency` (through the
    /// injector that builds the value) to make the value.
    func register<T: Sendable, Dependency: Sendable, First: Sendable, each Rest: Sendable>(
        _ type: T.Type,
        name: String? = nil,
        resolving dependency: Dependency.Type,
        named dependencyName: String? = nil,
        arguments make: @escaping @Sendable (Dependency, First, repeat each Rest) throws -> T
    ) async {
        switch base {
        case .sync(let injector):
            injector.register(type, name: name) { (r, first: First, rest: repeat each Rest) in
                try make(r.resolve(dependency, name: dependencyName), first, repeat each rest)
            }
        case .async(let injector):
            await injector.register(type, name: name) { (r, first: First, rest: repeat each Rest) in
                try await make(r.resolve(dependency, name: dependencyName), first, repeat each rest)
            }
        }
    }

    func resolve<T: Sendable, First, each Rest>(
        _ type: T.Type,
        name: String? = nil,
        arguments first: First,
        _ rest: repeat each Rest
    ) async throws(InjectionError) -> T {
        switch base {
        case .sync(let injector): try injector.resolve(type, name: name, arguments: first, repeat each rest)
        case .async(let injector): try await injector.resolve(type, name: name, arguments: first, repeat each rest)
        }
    }

    /// Registers `value` for the key behind `keyPath`, through `values` (the actor face's
    /// through its synchronous view, the same injector: it has no value form of its own).
    func setValue<Value: Sendable>(_ keyPath: WritableKeyPath<InjectedValues, Value>, _ value: Value) {
        switch base {
        case .sync(let injector): injector.values[keyPath: keyPath] = value
        case .async(let injector): injector.synchronous.values[keyPath: keyPath] = value
        }
    }

    /// Registers a factory for the key behind `keyPath`.
    func register<Value: Sendable>(
        _ keyPath: KeyPath<InjectedValues, Value>,
        scope: Scope? = nil,
        _ make: @escaping @Sendable () throws -> Value
    ) async {
        switch base {
        case .sync(let injector): injector.register(keyPath, scope: scope) { _ in try make() }
        case .async(let injector): await injector.register(keyPath, scope: scope) { _ in try make() }
        }
    }

    func resolve<Value: Sendable>(_ keyPath: KeyPath<InjectedValues, Value>) async -> Value {
        switch base {
        case .sync(let injector): injector.resolve(keyPath)
        case .async(let injector): await injector.resolve(keyPath)
        }
    }

    /// The face's provider handle for `type` under `name`, made by `provider(for:name:)`.
    func provider<T: Sendable>(for type: T.Type, name: String? = nil) -> FaceProvider<T> {
        switch base {
        case .sync(let injector): FaceProvider(.sync(injector.provider(for: type, name: name)))
        case .async(let injector): FaceProvider(.async(injector.provider(for: type, name: name)))
        }
    }

    /// The face's provider handle for `type`, resolved as a dependency (with no registration
    /// of its own).
    func resolveProvider<T: Sendable>(for type: T.Type) async throws(InjectionError) -> FaceProvider<T> {
        switch base {
        case .sync(let injector): FaceProvider(.sync(try injector.resolve(ProviderHandle<T>.self)))
        case .async(let injector): FaceProvider(.async(try await injector.resolve(AsyncProviderHandle<T>.self)))
        }
    }

    /// Registers a factory that resolves the face's provider handle for `dependency` (with no
    /// registration of its own) and makes the value from it.
    func register<T: Sendable, Dependency: Sendable>(
        _ type: T.Type,
        scope: Scope? = nil,
        resolvingProviderOf dependency: Dependency.Type,
        _ make: @escaping @Sendable (FaceProvider<Dependency>) throws -> T
    ) async {
        switch base {
        case .sync(let injector):
            injector.register(type, scope: scope) { r in try make(FaceProvider(.sync(r.resolve()))) }
        case .async(let injector):
            await injector.register(type, scope: scope) { r in try await make(FaceProvider(.async(r.resolve()))) }
        }
    }

    /// Registers a factory that runs on the main actor: `mainActor.register` on the sync face, a
    /// `@MainActor` closure on the actor face.
    func register<T: Sendable>(
        _ type: T.Type,
        scope: Scope? = nil,
        onMainActor make: @escaping @MainActor () throws -> T
    ) async {
        switch base {
        case .sync(let injector): injector.mainActor.register(type, scope: scope) { _ in try make() }
        case .async(let injector): await injector.register(type, scope: scope) { @MainActor _ in try make() }
        }
    }

    /// Resolves on `actor` (pass `MainActor.shared`): the sync face runs a main-actor factory in
    /// place only when it is resolved on the main actor.
    func resolve<T: Sendable>(_ type: T.Type, on actor: isolated (any Actor)?) async throws(InjectionError) -> T {
        switch base {
        case .sync(let injector): try injector.resolve(type)
        case .async(let injector): try await injector.resolve(type)
        }
    }
}

/// A `ProviderHandle` or an `AsyncProviderHandle`, called through one async API.
struct FaceProvider<Value: Sendable>: Sendable {
    enum Base: Sendable {
        case sync(ProviderHandle<Value>)
        case async(AsyncProviderHandle<Value>)
    }

    let base: Base

    init(_ base: Base) {
        self.base = base
    }

    func callAsFunction() async throws(InjectionError) -> Value {
        switch base {
        case .sync(let handle): try handle()
        case .async(let handle): try await handle()
        }
    }
}
