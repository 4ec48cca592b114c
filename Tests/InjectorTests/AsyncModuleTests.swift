import Injector
import Testing

struct AsyncLiveModule: AsyncDependencyModule {
    func register(in injector: AsyncDependencyInjector) async {
        await injector.register("live", name: "mode")
        await injector.register(Int.self, name: "connections", scope: .eagerSingleton) { r in
            try await Task.sleep(nanoseconds: 1_000)
            return try await r.resolve(String.self, name: "mode") == "live" ? 10 : 0
        }
    }
}

struct AsyncTestModule: AsyncDependencyModule {
    func register(in injector: AsyncDependencyInjector) async {
        await injector.register("test", name: "mode")
    }
}

struct AsyncBrokenModule: AsyncDependencyModule {
    func register(in injector: AsyncDependencyInjector) async {
        await injector.register("broken", name: "mode")
        await injector.register(Int.self, name: "failing", scope: .eagerSingleton) { _ in throw SampleError(code: 4) }
    }
}

@Suite struct AsyncModuleTests {
    @Test func installRegistersInOrderCreatesEagerSingletonsAndNamesTheModule() async throws {
        let injector = AsyncDependencyInjector()
        try await injector.install(AsyncLiveModule(), AsyncTestModule())

        #expect(try await injector.resolve(String.self, name: "mode") == "test")
        #expect(await injector.module(providing: String.self, name: "mode") == "InjectorTests.AsyncTestModule")
        #expect(await injector.module(providing: Int.self, name: "connections") == "InjectorTests.AsyncLiveModule")
        #expect(try await injector.resolve(Int.self, name: "connections") == 0)  // created when "mode" was "test"
    }

    @Test func installingTheSameModuleTwiceIsHarmless() async throws {
        let injector = AsyncDependencyInjector()
        try await injector.install(AsyncTestModule())
        await injector.register("changed", name: "mode")
        try await injector.install(AsyncTestModule())

        #expect(try await injector.resolve(String.self, name: "mode") == "changed")
        #expect(await injector.module(providing: String.self, name: "mode") == nil)
    }

    @Test func aFailingEagerSingletonUndoesTheInstallation() async throws {
        let injector = AsyncDependencyInjector()
        try await injector.install(AsyncTestModule())

        await #expect(throws: InjectionError.self) { try await injector.install(AsyncBrokenModule()) }
        #expect(try await injector.resolve(String.self, name: "mode") == "test")
        #expect(await injector.module(providing: String.self, name: "mode") == "InjectorTests.AsyncTestModule")
        #expect(await !injector.isRegistered(Int.self, name: "failing"))
    }
}
