import Injector
import Testing

private final class Greeting {
    @Inject var greeter: any Greeter
}

@Suite struct OverridesTests {
    private func appInjector() -> DependencyInjector {
        let injector = DependencyInjector()
        injector.register(EnglishGreeter() as any Greeter)
        return injector
    }

    @Test func wrappersAndCurrentSeeTheOverridesInsideOnly() throws {
        let app = appInjector()
        DependencyInjector.$current.withValue(app) {
            let inside = app.withOverrides({ $0.register(FrenchGreeter() as any Greeter) }) {
                #expect(DependencyInjector.current.parent === app)
                return Greeting()
            }
            #expect(inside.greeter.greet() == "Bonjour")  // kept after the scope ended
            #expect(Greeting().greeter.greet() == "Hello")
            #expect(DependencyInjector.current === app)
        }
        #expect(try app.resolve((any Greeter).self).greet() == "Hello")
    }

    @Test func theScopeIsRestoredWhenTheBodyThrows() {
        let app = appInjector()
        DependencyInjector.$current.withValue(app) {
            #expect(throws: SampleError(code: 3)) {
                try app.withOverrides({ $0.register(FrenchGreeter() as any Greeter) }) {
                    throw SampleError(code: 3)
                }
            }
            #expect(DependencyInjector.current === app)
            #expect(Greeting().greeter.greet() == "Hello")
        }
    }

    @Test func overridesNestInnermostFirst() throws {
        let app = appInjector()
        app.register("outer default", name: "motto")
        try app.withOverrides({ $0.register("outer", name: "motto") }) {
            try DependencyInjector.current.withOverrides({ $0.register(FrenchGreeter() as any Greeter) }) {
                #expect(Greeting().greeter.greet() == "Bonjour")
                let motto: String = try DependencyInjector.resolve(name: "motto")
                #expect(motto == "outer")
            }
            #expect(Greeting().greeter.greet() == "Hello")
        }
    }

    @Test func theAsyncVariantReachesChildTasks() async throws {
        let app = appInjector()
        let greetings = try await app.withOverrides({ $0.register(FrenchGreeter() as any Greeter) }) {
            async let fromChild = Greeting().greeter.greet()
            let fromTask = await Task { Greeting().greeter.greet() }.value
            try await Task.sleep(nanoseconds: 1_000)
            return [await fromChild, fromTask]
        }
        #expect(greetings == ["Bonjour", "Bonjour"])
        #expect(DependencyInjector.current === DependencyInjector.shared)
    }
}
