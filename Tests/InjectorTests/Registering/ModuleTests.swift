import Injector
import Testing

struct LiveModule: FaceModule {
    func register(in injector: DependencyInjector) {
        injector.register(EnglishGreeter() as any Greeter)
        injector.register(Service.self, scope: .singleton) { _ in Service(label: "live") }
    }

    func register(in injector: AsyncDependencyInjector) async {
        await injector.register(EnglishGreeter() as any Greeter)
        await injector.register(Service.self, scope: .singleton) { _ in Service(label: "live") }
    }
}

struct FrenchModule: FaceModule {
    func register(in injector: DependencyInjector) {
        injector.register(FrenchGreeter() as any Greeter)
    }

    func register(in injector: AsyncDependencyInjector) async {
        await injector.register(FrenchGreeter() as any Greeter)
    }
}

/// Counts how often its `register(in:)` runs.
private struct CountingModule: DependencyModule {
    let calls: Counter
    func register(in injector: DependencyInjector) {
        calls.increment()
        injector.register("counted", name: "counting")
    }
}

private struct BrokenEagerModule: DependencyModule {
    func register(in injector: DependencyInjector) {
        injector.register("replacement", name: "motto")
        injector.register(Service.self, scope: .eagerSingleton) { _ in throw SampleError(code: 9) }
    }
}

private struct EagerModule: DependencyModule {
    let calls: Counter
    func register(in injector: DependencyInjector) {
        injector.register(Service.self, scope: .eagerSingleton) { r in
            calls.increment()
            return Service(label: try r.resolve(String.self, name: "label"))
        }
        injector.register("registered after the eager singleton", name: "label")
    }
}

private struct ThrowingModule: DependencyModule {
    func register(in injector: DependencyInjector) throws(InjectionError) {
        injector.register("half", name: "motto")
        _ = try injector.resolve(NodeA.self)
    }
}

struct ParentModule: FaceModule {
    func register(in injector: DependencyInjector) throws(InjectionError) {
        try injector.install(FrenchModule())
        injector.register("from parent module", name: "motto")
    }

    func register(in injector: AsyncDependencyInjector) async throws(InjectionError) {
        try await injector.install(FrenchModule())
        await injector.register("from parent module", name: "motto")
    }
}

@Suite struct ModuleTests {
    @Test(arguments: Face.allCases)
    func installRegistersEveryModuleInOrderAndTheLastWins(face: Face) async throws {
        let injector = face.makeInjector()
        try await injector.install(LiveModule(), FrenchModule())

        #expect(try await injector.resolve((any Greeter).self).greet() == "Bonjour")
        #expect(await injector.module(providing: (any Greeter).self) == "InjectorTests.FrenchModule")
        #expect(await injector.module(providing: Service.self) == "InjectorTests.LiveModule")
        #expect(await injector.child().module(providing: Service.self) == "InjectorTests.LiveModule")
    }

    /// An empty list of modules, assembled or written, compiles on both faces and installs
    /// nothing (issue 43: `install([])` was ambiguous with the main-actor modules' form).
    @Test @MainActor func anEmptyListOfModulesInstallsNothing() async throws {
        let injector = DependencyInjector()
        try injector.install([])
        try injector.install()
        let modules: [any DependencyModule] = []
        try injector.install(modules)
        let actor = AsyncDependencyInjector()
        try await actor.install([])
        try await actor.install()

        #expect(injector.registrations.isEmpty)
        #expect(await actor.registrations.isEmpty)
    }

    @Test func installingTheSameModuleTwiceIsHarmless() throws {
        let injector = DependencyInjector()
        let calls = Counter()
        try injector.install(LiveModule(), CountingModule(calls: calls))
        let service = try injector.resolve(Service.self)
        try injector.install(LiveModule(), CountingModule(calls: calls))

        #expect(calls.value == 1)
        #expect(try injector.resolve(Service.self) === service)  // the singleton was not replaced
    }

    @Test(arguments: Face.allCases)
    func registrationsOutsideModulesHaveNoModule(face: Face) async {
        let injector = face.makeInjector()
        await injector.register(1)
        #expect(await injector.module(providing: Int.self) == nil)
        #expect(await injector.module(providing: String.self) == nil)
    }

    @Test func eagerSingletonsAreCreatedAtInstallAfterEveryModuleRegistered() throws {
        let injector = DependencyInjector()
        let calls = Counter()
        try injector.install(EagerModule(calls: calls))

        #expect(calls.value == 1)
        #expect(try injector.resolve(Service.self).label == "registered after the eager singleton")
        #expect(calls.value == 1)
    }

    @Test func aFailingEagerSingletonFailsInstallAndLeavesNothingBehind() throws {
        let injector = DependencyInjector()
        injector.register("original", name: "motto")

        let error = #expect(throws: InjectionError.self) { try injector.install(LiveModule(), BrokenEagerModule()) }
        guard case .factoryFailed(let key, _, let underlying) = error else {
            Issue.record("expected factoryFailed, got \(String(describing: error))")
            return
        }
        #expect(key == DependencyKey(Service.self))
        #expect(underlying as? SampleError == SampleError(code: 9))
        #expect(try injector.resolve(String.self, name: "motto") == "original")
        #expect(!injector.isRegistered(Service.self))
        #expect(!injector.isRegistered((any Greeter).self))

        // Nothing is remembered as installed either: a fixed module installs normally.
        #expect(throws: Never.self) { try injector.install(LiveModule()) }
        #expect(injector.isRegistered(Service.self))
    }

    @Test func aModuleThatThrowsIsUndone() {
        let injector = DependencyInjector()
        #expect(throws: InjectionError.self) { try injector.install(ThrowingModule()) }
        #expect(!injector.isRegistered(String.self, name: "motto"))
    }

    @Test(arguments: Face.allCases)
    func modulesMayInstallOtherModules(face: Face) async throws {
        let injector = face.makeInjector()
        try await injector.install(ParentModule())

        #expect(try await injector.resolve((any Greeter).self).greet() == "Bonjour")
        #expect(await injector.module(providing: (any Greeter).self) == "InjectorTests.FrenchModule")
        #expect(await injector.module(providing: String.self, name: "motto") == "InjectorTests.ParentModule")
    }

    @Test func eagerSingletonOutsideInstallIsCreatedOnFirstResolve() throws {
        let injector = DependencyInjector()
        let calls = Counter()
        injector.register(Service.self, scope: .eagerSingleton) { _ in
            calls.increment()
            return Service()
        }
        #expect(calls.value == 0)
        #expect(try injector.resolve(Service.self) === injector.resolve(Service.self))
        #expect(calls.value == 1)
    }
}
