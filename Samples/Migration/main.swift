// Migration: the classic hand-rolled `DependencyInjector` + `@Inject` snippet, run unchanged
// against Injector, then improved one step at a time; then a Swinject-style app ported (step 5).
// Run it with `swift run Migration`.
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
DependencyInjector.shared.register(FooService.self, name: "perUse") { _ in TracedFoo("perUse") }
print("  .transient (the default): a new instance on every resolve")
resolveTwice(name: "perUse")
DependencyInjector.shared.register(FooService.self, name: "shared", scope: .singleton) { _ in TracedFoo("shared") }
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

print("5. A Swinject-style app, ported (see Assemblies.swift):")
// Swinject: `Assembler([LoginAssembly(), ServicesAssembly()])`.
let app = DependencyInjector()
do {
    try app.install(LoginAssembly(), ServicesAssembly())

    print("  a login screen, wired by initCompleted hooks:")
    let screen = try app.resolve(LoginView.self)
    let presenter = screen.presenter
    print("  the presenter's weak view is the screen: \(presenter?.view === screen)")
    print("  the presenter and the interactor share one router: \(presenter?.router === presenter?.interactor.router)")
    screen.tapLogIn(as: "")
    screen.tapLogIn(as: "alice")
    print("  a second screen gets its own router (.graph):")
    let second = try app.resolve(LoginView.self)
    print("  new router: \(second.presenter?.router !== presenter?.router)")

    print("  one StripeClient answers PaymentService and Refunds (implements):")
    let payments = try app.resolve((any PaymentService).self)
    let refunds = try app.resolve((any Refunds).self)
    print("  same client: \(payments as AnyObject === refunds as AnyObject)")
    let session = try app.resolve(UserSession.self)
    session.cart.append("mug")
    let receipt = payments.charge(cents: 1_200, for: session.user ?? "nobody")
    print("  \(session.user ?? "nobody") buys \(session.cart): \(receipt); \(refunds.refund(receipt))")

    print("  logout: reset(.session) drops the session; the singletons stay:")
    try app.reset(.session)
    let afterLogout = try app.resolve(UserSession.self)
    print("  new session: \(afterLogout !== session), user: \(afterLogout.user ?? "nobody"), cart: \(afterLogout.cart)")
    let client = try app.resolve((any PaymentService).self)
    print(
        "  same StripeClient (a singleton by ServicesAssembly's defaultScope): \(client as AnyObject === payments as AnyObject)"
    )

    print("  a typo in a scope's name is a typed error, not a silent no-op:")
    try app.reset(.named("sesion"))
} catch {
    print("  | \(error.description.split(separator: "\n")[0])")
}
print("Migration finished.")
