// Migration: the classic hand-rolled `DependencyInjector` + `@Inject` snippet, run unchanged
// against Injector, then improved one step at a time. Run it with `swift run Migration`.
import Injector

print("0. The classic snippet, unchanged:")
DependencyInjector.register(dependency: Foo("Hey there!") as FooService)
Bar().useFoo()  // prints "Hey there!"

print("1. Typed errors instead of a crash:")
// `$foo` gives the error without reading `foo` (which would stop the program).
DependencyInjector.shared.unregister(FooService.self)
CarefulBar().useFoo()
// The classic mistake: registering the concrete type instead of the protocol.
DependencyInjector.register(dependency: Foo("registered as Foo"))
do {
    let foo: FooService = try DependencyInjector.resolve()
    foo.printMessage()
} catch {
    // `error` is an `InjectionError` (typed throws): its cases match without a cast.
    if case .notRegistered(let key, _, _) = error {
        print("  caught .notRegistered(\(key)); the whole message:")
    }
    print(error.description.split(separator: "\n").map { "  | \($0)" }.joined(separator: "\n"))
}
DependencyInjector.shared.unregister(Foo.self)
DependencyInjector.register(dependency: Foo("Hey there!") as FooService)
CarefulBar().useFoo()

print("2. Names: several registrations of one type:")
DependencyInjector.shared.register(Foo("Hello!") as FooService, name: "english")
DependencyInjector.shared.register(Foo("Bonjour !") as FooService, name: "french")
Greeter().greet()

print("3. Scopes: a factory instead of a ready-made instance, run when needed:")
DependencyInjector.register(FooService.self, name: "perUse") { _ in TracedFoo("perUse") }
print("  .transient (the default): a new instance on every resolve")
resolveTwice(name: "perUse")
DependencyInjector.register(FooService.self, name: "shared", scope: .singleton) { _ in TracedFoo("shared") }
print("  .singleton: created on the first resolve, then kept")
resolveTwice(name: "shared")

print("4. A child injector for tests: overrides for one block, nothing leaks:")
DependencyInjector.shared.withOverrides({ $0.register(MockFoo() as FooService) }) {
    Bar().useFoo()
}
let test = DependencyInjector.shared.child()
test.register(Foo("Hello from the test's own child") as FooService)
DependencyInjector.$current.withValue(test) {
    Bar().useFoo()
}
print("  and outside, the app's registration is untouched:")
Bar().useFoo()
print("Migration finished.")
