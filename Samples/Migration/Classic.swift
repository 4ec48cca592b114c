import Injector

// The types of the classic hand-rolled snippet, exactly as apps write them: a protocol, a
// class that conforms, and a consumer with `@Inject`. Nothing here is specific to this library.

protocol FooService {
    func printMessage()
}

class Foo: FooService {
    let message: String
    init(_ message: String) {
        self.message = message
    }
    func printMessage() {
        print(message)
    }
}

class Bar {
    @Inject var foo: FooService
    func useFoo() { foo.printMessage() }
}

// The improvements, one step at a time.

/// Step 1: `$foo` is a `Result` that carries the typed error, so a missing service can be
/// handled instead of stopping the program.
class CarefulBar {
    @Inject var foo: FooService

    func useFoo() {
        switch $foo {
        case .success(let foo): foo.printMessage()
        case .failure(let error): print("  no FooService: \(error.description.split(separator: "\n")[0])")
        }
    }
}

/// Step 2: two registrations of one type, told apart by name.
class Greeter {
    @Inject(name: "english") var english: FooService
    @Inject(name: "french") var french: FooService

    func greet() {
        english.printMessage()
        french.printMessage()
    }
}

/// Step 3: a service with a lifetime. Each instance says when it is created.
final class TracedFoo: FooService {
    let label: String
    init(_ label: String) {
        self.label = label
        print("  (a TracedFoo for \"\(label)\" is created)")
    }
    func printMessage() { print("TracedFoo for \"\(label)\"") }
}

/// Resolves the `FooService` named `name` twice and says whether both are one instance.
func resolveTwice(name: String) {
    do {
        let first: FooService = try DependencyInjector.resolve(name: name)
        let second: FooService = try DependencyInjector.resolve(name: name)
        print("  same instance: \(first as AnyObject === second as AnyObject)")
    } catch {
        print("  unexpected: \(error)")
    }
}

/// Step 4: a mock for tests.
class MockFoo: FooService {
    func printMessage() { print("Hello from the mock") }
}
