import Testing

@testable import Injector

/// A main-actor type, as UI code declares its models: its initialiser and state are isolated.
@MainActor
final class SettingsModel {
    let store: SettingsStore
    var title = "Settings"

    init(store: SettingsStore) {
        self.store = store
    }
}

final class SettingsStore: Sendable {}

@MainActor
private final class SettingsScreen {
    @Inject var model: SettingsModel
}

@Suite struct MainActorTests {
    @MainActor
    private func makeInjector(scope: Scope) -> (DependencyInjector, Counter) {
        let injector = DependencyInjector()
        let made = Counter()
        injector.register(SettingsStore.self, scope: .singleton) { _ in SettingsStore() }
        injector.mainActor.register(SettingsModel.self, scope: scope) { r in
            made.increment()
            return try SettingsModel(store: r.resolve())
        }
        return (injector, made)
    }

    @MainActor
    @Test(arguments: Face.allCases)
    func mainActorCodeRegistersAndResolvesAMainActorType(face: Face) async throws {
        let injector = face.makeInjector()
        let store = SettingsStore()
        let made = Counter()
        let offMain = Counter()
        await injector.register(
            SettingsModel.self,
            onMainActor: {
                made.increment()
                if !MainQueue.isCurrent { offMain.increment() }
                return SettingsModel(store: store)  // a main-actor initialiser, called without `await`
            })

        let first = try await injector.resolve(SettingsModel.self, on: MainActor.shared)
        let second = try await injector.resolve(SettingsModel.self, on: MainActor.shared)
        first.title = "Edited"  // main-actor state, used from main-actor code

        #expect(first !== second)
        #expect(first.store === second.store)
        #expect(second.title == "Settings")
        #expect(made.value == 2)
        #expect(offMain.value == 0)
    }

    @MainActor
    @Test func injectInAMainActorClassReadsIt() {
        let (injector, _) = makeInjector(scope: .transient)
        let screen = DependencyInjector.$current.withValue(injector) { SettingsScreen() }
        #expect(screen.model.title == "Settings")
    }

    @Test func aResolveFromAnotherThreadThrowsInsteadOfRunningTheFactory() async throws {
        let (injector, made) = await MainActor.run { makeInjector(scope: .transient) }

        let error = await Task.detached { () -> InjectionError? in
            do throws(InjectionError) {
                _ = try injector.resolve(SettingsModel.self)
                return nil
            } catch {
                return error
            }
        }.value

        guard case .requiresMainActor(let key, let path) = error else {
            Issue.record("expected requiresMainActor, got \(String(describing: error))")
            return
        }
        #expect(key == DependencyKey(SettingsModel.self))
        #expect(path == [DependencyKey(SettingsModel.self)])
        #expect(made.value == 0)
        #expect(
            error?.description == """
                Injector could not resolve InjectorTests.SettingsModel: its factory runs on the main actor, \
                and it was resolved from another thread.
                To fix: resolve it from main-actor code (for example inside `await MainActor.run { … }`), \
                or register it as a singleton and resolve it once on the main actor: every thread then \
                gets the created value. (An AsyncDependencyInjector resolves off the main actor, even \
                awaited from it: register the type there with `{ @MainActor r in … }`.)
                """)
    }

    @MainActor
    @Test func aMainActorHookWiresAMainActorTypeOnTheMainActorAndThrowsOffIt() async throws {
        let injector = DependencyInjector()
        injector.register(SettingsStore.self, scope: .singleton) { _ in SettingsStore() }
        injector.mainActor.register(SettingsModel.self) { r in try SettingsModel(store: r.resolve()) }
            .initCompleted { @MainActor _, model in model.title = "Wired" }

        #expect(try injector.resolve(SettingsModel.self).title == "Wired")
        let offMain = await Task.detached { () -> InjectionError? in
            do throws(InjectionError) {
                _ = try injector.resolve(SettingsStore.self)  // no hook: fine anywhere
                _ = try injector.resolve(SettingsModel.self)
                return nil
            } catch {
                return error
            }
        }.value
        guard case .requiresMainActor(let key, _) = offMain else {
            Issue.record("expected requiresMainActor, got \(String(describing: offMain))")
            return
        }
        #expect(key == DependencyKey(SettingsModel.self))
    }

    @Test func aSingletonCreatedOnTheMainActorResolvesFromAnyThread() async throws {
        let (injector, made) = await MainActor.run { makeInjector(scope: .singleton) }
        let created = try await MainActor.run { try injector.resolve(SettingsModel.self) }

        let fromBackground = try await Task.detached { try injector.resolve(SettingsModel.self) }.value

        #expect(fromBackground === created)
        #expect(made.value == 1)
    }

    @MainActor
    @Test func verifyOnTheMainActorRunsMainActorFactories() {
        let injector = DependencyInjector()
        injector.mainActor.register(SettingsModel.self) { r in try SettingsModel(store: r.resolve()) }

        #expect(throws: VerificationError.self) { try injector.verify() }  // SettingsStore is missing
    }

    @Test func verifyOffTheMainActorSkipsMainActorFactories() async throws {
        let (injector, made) = await MainActor.run { makeInjector(scope: .singleton) }
        try await Task.detached { try injector.verify() }.value
        #expect(made.value == 0)
    }

    @Test func theAsyncInjectorBuildsAMainActorTypeByAwaitingItsInitialiser() async throws {
        let services = AsyncDependencyInjector()
        await services.register(SettingsStore.self, scope: .singleton) { _ in SettingsStore() }
        await services.register(SettingsModel.self) { r in try await SettingsModel(store: r.resolve()) }

        let model = try await services.resolve(SettingsModel.self)
        #expect(await model.title == "Settings")
    }

    // Where the sync face throws `requiresMainActor`, the actor face awaits the main actor.
    @Test func theAsyncInjectorRunsAMainActorFactoryOnTheMainActorWhateverTheCaller() async throws {
        let services = AsyncDependencyInjector()
        let offMain = Counter()
        await services.register(SettingsStore.self, scope: .singleton) { _ in SettingsStore() }
        await services.register(SettingsModel.self) { @MainActor r in
            if !MainQueue.isCurrent { offMain.increment() }
            return SettingsModel(store: try await r.resolve())  // main-actor isolated: no `await` on the init
        }

        let model = try await Task.detached { try await services.resolve(SettingsModel.self) }.value
        #expect(await model.title == "Settings")
        #expect(offMain.value == 0)
    }
}
