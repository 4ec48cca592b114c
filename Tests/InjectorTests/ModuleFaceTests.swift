import Injector
import Testing

/// Both faces register `"live"` and an eager singleton that reads it when it is created.
struct EagerLiveModule: FaceModule {
    func register(in injector: DependencyInjector) {
        injector.register("live", name: "mode")
        injector.register(Int.self, name: "connections", scope: .eagerSingleton) { r in
            try r.resolve(String.self, name: "mode") == "live" ? 10 : 0
        }
    }

    func register(in injector: AsyncDependencyInjector) async {
        await injector.register("live", name: "mode")
        await injector.register(Int.self, name: "connections", scope: .eagerSingleton) { r in
            await Task.yield()  // a factory that suspends
            return try await r.resolve(String.self, name: "mode") == "live" ? 10 : 0
        }
    }
}

struct TestModeModule: FaceModule {
    func register(in injector: DependencyInjector) {
        injector.register("test", name: "mode")
    }

    func register(in injector: AsyncDependencyInjector) async {
        await injector.register("test", name: "mode")
    }
}

struct BrokenEagerFaceModule: FaceModule {
    func register(in injector: DependencyInjector) {
        injector.register("broken", name: "mode")
        injector.register(Int.self, name: "failing", scope: .eagerSingleton) { _ in throw SampleError(code: 4) }
    }

    func register(in injector: AsyncDependencyInjector) async {
        await injector.register("broken", name: "mode")
        await injector.register(Int.self, name: "failing", scope: .eagerSingleton) { _ in throw SampleError(code: 4) }
    }
}

/// Modules and `.eagerSingleton` on both faces, through the one installation journal.
@Suite struct ModuleFaceTests {
    @Test(arguments: Face.allCases)
    func installRegistersInOrderCreatesEagerSingletonsAndNamesTheModule(face: Face) async throws {
        let injector = face.makeInjector()
        try await injector.install(EagerLiveModule(), TestModeModule())

        #expect(try await injector.resolve(String.self, name: "mode") == "test")
        #expect(await injector.module(providing: String.self, name: "mode") == "InjectorTests.TestModeModule")
        #expect(await injector.module(providing: Int.self, name: "connections") == "InjectorTests.EagerLiveModule")
        #expect(try await injector.resolve(Int.self, name: "connections") == 0)  // created when "mode" was "test"
    }

    @Test(arguments: Face.allCases)
    func installingTheSameModuleTwiceIsHarmless(face: Face) async throws {
        let injector = face.makeInjector()
        try await injector.install(TestModeModule())
        await injector.register("changed", name: "mode")
        try await injector.install(TestModeModule())

        #expect(try await injector.resolve(String.self, name: "mode") == "changed")
        #expect(await injector.module(providing: String.self, name: "mode") == nil)
    }

    @Test(arguments: Face.allCases)
    func aFailingEagerSingletonUndoesTheInstallation(face: Face) async throws {
        let injector = face.makeInjector()
        try await injector.install(TestModeModule())

        let error = await injector.installError(BrokenEagerFaceModule())
        guard case .factoryFailed(let key, _, let underlying) = error else {
            Issue.record("expected factoryFailed, got \(String(describing: error))")
            return
        }
        #expect(key == DependencyKey(Int.self, name: "failing"))
        #expect(underlying as? SampleError == SampleError(code: 4))
        #expect(try await injector.resolve(String.self, name: "mode") == "test")
        #expect(await injector.module(providing: String.self, name: "mode") == "InjectorTests.TestModeModule")
        #expect(await !injector.isRegistered(Int.self, name: "failing"))
    }
}
