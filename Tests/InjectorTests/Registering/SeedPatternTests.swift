import Injector
import Testing

protocol FooService: Sendable {
    func message() -> String
    func printMessage()
}

struct Foo: FooService {
    let text: String
    let printed = Collected<String>()
    init(_ text: String) { self.text = text }
    func message() -> String { text }
    func printMessage() {
        print(text)
        printed.append(text)
    }
}

/// The classic snippet's consumer, exactly as users write it.
class Bar {
    @Inject var foo: FooService
    func useFoo() { foo.printMessage() }
}

@Suite struct SeedPatternTests {
    @Test func theClassicStaticCallsWorkUnchangedAgainstCurrent() throws {
        try DependencyInjector.$current.withValue(DependencyInjector()) {
            DependencyInjector.register(dependency: Foo("Hey there!") as FooService)
            let foo: FooService = try DependencyInjector.resolve()
            #expect(foo.message() == "Hey there!")
        }
        #expect(!DependencyInjector.shared.isRegistered((any FooService).self))
    }

    @Test func theClassicSnippetWithInjectPrintsTheMessage() {
        let foo = Foo("Hey there!")
        DependencyInjector.$current.withValue(DependencyInjector()) {
            DependencyInjector.register(dependency: foo as FooService)
            Bar().useFoo()
        }
        #expect(foo.printed.values == ["Hey there!"])
    }

    @Test func factoriesResolveTheirOwnDependencies() throws {
        let injector = DependencyInjector()
        injector.register(Service(label: "engine"))
        injector.register(Dependent.self) { r in try Dependent(service: r.resolve()) }

        #expect(try injector.resolve(Dependent.self).service.label == "engine")
    }
}
