import Testing

@testable import Injector

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

/// Registers `"registered"` under `"gated"` once `proceed` opens (after opening `started`),
/// or fails there when `failing`: an installation that takes its time.
struct GatedModule: FaceModule {
    let started = AsyncGate()
    let proceed = AsyncGate()
    var failing = false
    var name = "gated"

    func register(in injector: DependencyInjector) throws(InjectionError) {
        started.open()
        proceed.waitBlocking()
        if failing { _ = try injector.resolve(Int.self, name: "missing") }
        injector.register("registered", name: name)
    }

    func register(in injector: AsyncDependencyInjector) async throws(InjectionError) {
        started.open()
        await proceed.wait()
        if failing { _ = try await injector.resolve(Int.self, name: "missing") }
        await injector.register("registered", name: name)
    }
}

/// A second `GatedModule` type, for two installations that each wait for the other's module.
struct OtherGatedModule: FaceModule {
    let gated = GatedModule(name: "other")

    func register(in injector: DependencyInjector) throws(InjectionError) {
        try gated.register(in: injector)
    }

    func register(in injector: AsyncDependencyInjector) async throws(InjectionError) {
        try await gated.register(in: injector)
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

    /// What a second `install` of `module`, started while a first one runs, sees right after it
    /// returns: its error and the module's registration; the first one's error.
    private func installTwiceAtOnce(
        _ module: GatedModule,
        into injector: FaceInjector
    ) async -> (first: InjectionError?, second: InjectionError?, secondSaw: String?) {
        async let first = injector.installErrorOnOwnThread(module)
        await module.started.wait()
        async let second: (InjectionError?, String?) = {
            let error = await injector.installErrorOnOwnThread(module)
            return (error, try? await injector.resolve(String.self, name: "gated"))
        }()
        let waited = await untilInstallationsWait(1, in: injector)
        #expect(waited, "the second install did not wait for the first")
        module.proceed.open()
        let (secondError, secondSaw) = await second
        return (await first, secondError, secondSaw)
    }

    @Test(arguments: Face.allCases)
    func aConcurrentInstallOfTheSameModuleReturnsOnceItsRegistrationsAreInPlace(face: Face) async {
        let injector = face.makeInjector()
        let outcome = await installTwiceAtOnce(GatedModule(), into: injector)

        #expect(outcome.first == nil)
        #expect(outcome.second == nil)
        #expect(outcome.secondSaw == "registered")
    }

    @Test(arguments: Face.allCases)
    func aConcurrentInstallOfTheSameModuleThrowsWhatTheFirstThrew(face: Face) async {
        let injector = face.makeInjector()
        let outcome = await installTwiceAtOnce(GatedModule(failing: true), into: injector)

        guard case .notRegistered(let key, _, _) = outcome.second else {
            Issue.record("expected notRegistered, got \(String(describing: outcome.second))")
            return
        }
        #expect(key == DependencyKey(Int.self, name: "missing"))
        #expect(outcome.first.map(String.init(describing:)) == outcome.second.map(String.init(describing:)))
        #expect(outcome.secondSaw == nil)
        #expect(await injector.installError(GatedModule.opened()) == nil)  // the failure released the module type
    }

    /// `install(A, B)` and `install(B, A)` at once: each gets to the module the other holds.
    @Test(arguments: Face.allCases)
    func installationsThatWaitForEachOtherBothFinish(face: Face) async throws {
        let injector = face.makeInjector()
        let first = GatedModule()
        let second = OtherGatedModule()
        async let firstDone = injector.installErrorOnOwnThread(first, second)
        await first.started.wait()
        async let secondDone = injector.installErrorOnOwnThread(second, first)
        await second.gated.started.wait()
        first.proceed.open()  // the first installation moves on to `OtherGatedModule`, and waits
        #expect(await untilInstallationsWait(1, in: injector))
        second.gated.proceed.open()  // the second gets to `GatedModule`: waiting would never end

        #expect(await firstDone == nil)
        #expect(await secondDone == nil)
        #expect(try await injector.resolve(String.self, name: "gated") == "registered")
        #expect(try await injector.resolve(String.self, name: "other") == "registered")
    }
}

extension GatedModule {
    /// A gated module that does not wait.
    static func opened() -> GatedModule {
        let module = GatedModule()
        module.proceed.open()
        return module
    }
}
