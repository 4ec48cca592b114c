import Injector
@_exported import TestSupport

// Types shared by the test suites. Each suite builds its own `DependencyInjector()`, so the
// suites run in parallel without touching `DependencyInjector.shared`.

protocol Greeter: Sendable {
    func greet() -> String
}

struct EnglishGreeter: Greeter {
    func greet() -> String { "Hello" }
}

struct FrenchGreeter: Greeter {
    func greet() -> String { "Bonjour" }
}

/// A class whose identity tells instances apart.
final class Service: Sendable {
    let label: String
    init(label: String = "service") { self.label = label }
}

/// A value with no teardown that owns a plain child of the app, which keeps values of its own:
/// its release (in its turn, at a close or reset) sets off the child's teardowns.
final class ChildOwner: Sendable {
    let child: DependencyInjector
    init(_ child: DependencyInjector) { self.child = child }
}

/// Keeps the injector that the run that made it was handed, the synchronous face's `r`, to
/// resolve later.
final class InjectorKeeper: Sendable {
    let injector: DependencyInjector
    init(injector: DependencyInjector) { self.injector = injector }
}

/// Keeps the resolver that the run that made it was handed, the actor face's `r`, to resolve
/// later.
final class ResolverKeeper: Sendable {
    let resolver: AsyncResolver
    init(resolver: AsyncResolver) { self.resolver = resolver }
}

final class Dependent: Sendable {
    let service: Service
    init(service: Service) { self.service = service }
}

enum FeatureA {
    struct Config: Equatable { let value: String }
}

enum FeatureB {
    struct Config: Equatable { let value: String }
}

struct Box<Value> {
    let value: Value
}

extension Box: Sendable where Value: Sendable {}

struct SampleError: Error, Equatable {
    let code: Int
}

/// Nodes of a dependency chain or cycle, told apart by type.
struct NodeA {}
struct NodeB {}
struct NodeC {}
