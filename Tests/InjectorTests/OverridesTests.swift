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

    @Test func ancestorsSingletonsAreBuiltAfreshWithTheOverridesAndDroppedWithTheScope() throws {
        let app = DependencyInjector()
        app.register(Service(label: "live"))
        app.register(Dependent.self, scope: .singleton) { r in try Dependent(service: r.resolve()) }
        let appSingleton = try app.resolve(Dependent.self)

        weak var scopedSingleton: Dependent?
        try app.withOverrides({ $0.register(Service(label: "mock")) }) {
            let inside = try DependencyInjector.current.resolve(Dependent.self)
            #expect(inside.service.label == "mock")
            #expect(inside !== appSingleton)
            #expect(try DependencyInjector.current.resolve(Dependent.self) === inside)  // a singleton in the scope
            scopedSingleton = inside
        }
        #expect(scopedSingleton == nil)
        #expect(try app.resolve(Dependent.self) === appSingleton)
    }

    @Test func parallelScopesNeverShareASingleton() async throws {
        let app = DependencyInjector()
        app.register(Dependent.self, scope: .singleton) { r in try Dependent(service: r.resolve()) }
        let labels = try await withThrowingTaskGroup(of: String.self) { group in
            for index in 0..<16 {
                group.addTask {
                    try await app.withOverrides({ $0.register(Service(label: "scope \(index)")) }) {
                        await Task.yield()
                        return try DependencyInjector.current.resolve(Dependent.self).service.label
                    }
                }
            }
            return try await group.reduce(into: Set<String>()) { $0.insert($1) }
        }
        #expect(labels == Set((0..<16).map { "scope \($0)" }))
        #expect(!app.registrations.contains { $0.key == DependencyKey(Dependent.self) && $0.isCreated })
    }
}
