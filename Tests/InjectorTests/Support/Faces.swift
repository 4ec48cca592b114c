import Injector
import Testing

// The two faces of the injector, driven through one async API, so that a test of a capability
// runs against both (`@Test(arguments: Face.allCases)`). Capabilities add their operations in
// extensions of `FaceInjector` beside their tests.

/// `DependencyInjector` or `AsyncDependencyInjector`.
enum Face: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sync
    case async

    var testDescription: String { rawValue }

    /// A new, empty injector of this face.
    func makeInjector() -> FaceInjector {
        switch self {
        case .sync: FaceInjector(.sync(DependencyInjector()))
        case .async: FaceInjector(.async(AsyncDependencyInjector()))
        }
    }
}

/// An injector of either face.
struct FaceInjector: Sendable {
    enum Base: Sendable {
        case sync(DependencyInjector)
        case async(AsyncDependencyInjector)
    }

    let base: Base

    init(_ base: Base) {
        self.base = base
    }

    var face: Face {
        switch base {
        case .sync: .sync
        case .async: .async
        }
    }

    func child() -> FaceInjector {
        switch base {
        case .sync(let injector): FaceInjector(.sync(injector.child()))
        case .async(let injector): FaceInjector(.async(injector.child()))
        }
    }

    /// Registers an existing value.
    func register<T: Sendable>(_ instance: T, as type: T.Type = T.self, name: String? = nil) async {
        switch base {
        case .sync(let injector): injector.register(instance, as: type, name: name)
        case .async(let injector): await injector.register(instance, as: type, name: name)
        }
    }

    /// Registers a factory that needs nothing from the injector.
    func register<T: Sendable>(
        _ type: T.Type,
        name: String? = nil,
        scope: Scope? = nil,
        _ make: @escaping @Sendable () throws -> T
    ) async {
        switch base {
        case .sync(let injector): injector.register(type, name: name, scope: scope) { _ in try make() }
        case .async(let injector): await injector.register(type, name: name, scope: scope) { _ in try make() }
        }
    }

    /// Registers a factory that resolves `dependency` (through the injector that builds the
    /// value, as factories do) and makes the value from it.
    func register<T: Sendable, Dependency: Sendable>(
        _ type: T.Type,
        name: String? = nil,
        scope: Scope? = nil,
        resolving dependency: Dependency.Type,
        named dependencyName: String? = nil,
        _ make: @escaping @Sendable (Dependency) throws -> T
    ) async {
        switch base {
        case .sync(let injector):
            injector.register(type, name: name, scope: scope) { r in
                try make(r.resolve(dependency, name: dependencyName))
            }
        case .async(let injector):
            await injector.register(type, name: name, scope: scope) { r in
                try await make(r.resolve(dependency, name: dependencyName))
            }
        }
    }

    func unregister<T>(_ type: T.Type, name: String? = nil) async {
        switch base {
        case .sync(let injector): injector.unregister(type, name: name)
        case .async(let injector): await injector.unregister(type, name: name)
        }
    }

    func isRegistered<T>(_ type: T.Type, name: String? = nil) async -> Bool {
        switch base {
        case .sync(let injector): injector.isRegistered(type, name: name)
        case .async(let injector): await injector.isRegistered(type, name: name)
        }
    }

    func resolve<T: Sendable>(_ type: T.Type = T.self, name: String? = nil) async throws(InjectionError) -> T {
        switch base {
        case .sync(let injector): try injector.resolve(type, name: name)
        case .async(let injector): try await injector.resolve(type, name: name)
        }
    }

    /// The error a resolve throws, or `nil` when it succeeds.
    func resolveError<T: Sendable>(_ type: T.Type, name: String? = nil) async -> InjectionError? {
        do {
            _ = try await resolve(type, name: name)
            return nil
        } catch {
            return error
        }
    }
}
