import Testing

@testable import Injector

/// A module of main-actor registrations, with a default scope of its own.
private struct SettingsModule: MainActorDependencyModule {
    var defaultScope: Scope? { .singleton }

    func register(in registrar: MainActorRegistrar) {
        registrar.register(SettingsStore.self) { _ in SettingsStore() }
        registrar.register(SettingsModel.self) { r in try SettingsModel(store: r.resolve()) }
    }
}

/// A main-actor module that fails halfway.
private struct BrokenSettingsModule: MainActorDependencyModule {
    func register(in registrar: MainActorRegistrar) throws(InjectionError) {
        registrar.register(SettingsStore.self) { _ in SettingsStore() }
        _ = try registrar.injector.resolve(Int.self, name: "missing")
    }
}

/// Main-actor providers: the scoped form's expression runs on the main actor, when resolved.
@MainActor
private final class SettingsProviders {
    @Provider(mainActorScope: .singleton) var model: SettingsModel = SettingsModel(store: SettingsStore())
}

/// A main-actor model with a dependency, registered by initializer, which counts its calls
/// on the counter registered, if any.
@MainActor
private final class PlayerModel {
    let store: SettingsStore

    init(store: SettingsStore, made: Counter?) {
        made?.increment()
        self.store = store
    }
}

/// `injector.mainActor` and main-actor modules (issue 28): main-actor factories written with no
/// mark on the closure.
@Suite struct MainActorRegistrarTests {
    @MainActor
    @Test func theRegistrarsFactoriesRunOnTheMainActorAndChainAsRegisteredDoes() throws {
        let injector = DependencyInjector()
        let completed = Counter()
        injector.mainActor.register(SettingsStore.self, scope: .singleton) { _ in SettingsStore() }
        injector.mainActor.register(SettingsModel.self) { r in try SettingsModel(store: r.resolve()) }
            .initCompleted { _, _ in completed.increment() }

        let model = try injector.resolve(SettingsModel.self)

        #expect(MainQueue.isCurrent)
        #expect(model.store === (try injector.resolve(SettingsStore.self)))
        #expect(completed.value == 1)
    }

    @Test func offTheMainActorTheRegistrarsFactoryIsATypedError() async {
        let injector = DependencyInjector()
        injector.mainActor.register(SettingsModel.self) { _ in SettingsModel(store: SettingsStore()) }

        let error = await onOwnThread { () -> InjectionError? in
            do throws(InjectionError) {
                _ = try injector.resolve(SettingsModel.self)
                return nil
            } catch {
                return error
            }
        }

        guard case .requiresMainActor(let key, _)? = error else {
            Issue.record("expected requiresMainActor, got \(String(describing: error))")
            return
        }
        #expect(key == DependencyKey(SettingsModel.self))
    }

    @MainActor
    @Test func aMainActorModuleInstallsWithItsDefaultScopeOnce() throws {
        let injector = DependencyInjector()

        try injector.install(SettingsModule(), SettingsModule())

        let first = try injector.resolve(SettingsModel.self)
        #expect(first === (try injector.resolve(SettingsModel.self)))  // the module's default: singleton
        #expect(injector.module(providing: SettingsModel.self)?.hasSuffix("SettingsModule (private)") == true)
    }

    @MainActor
    @Test func aFailedMainActorModuleLeavesNothingRegistered() {
        let injector = DependencyInjector()

        #expect(throws: InjectionError.self) { try injector.install(BrokenSettingsModule()) }
        #expect(!injector.isRegistered(SettingsStore.self))
    }

    @MainActor
    @Test func aScopedMainActorProviderIsMadeWhenResolvedThenKept() throws {
        let injector = DependencyInjector()
        let providers = DependencyInjector.$current.withValue(injector) { SettingsProviders() }

        let model = providers.model

        #expect(model === (try injector.resolve(SettingsModel.self)))
    }

    /// A `@MainActor` type's initializer (its dependencies resolved by type, an optional one
    /// to `nil`) registers with no mark, and main-actor code resolves it; the graph has its
    /// edges before any resolve.
    @MainActor
    @Test func theRegistrarRegistersAMainActorInitializer() throws {
        let injector = DependencyInjector()
        injector.register(SettingsStore.self, scope: .singleton) { _ in SettingsStore() }
        injector.mainActor.register(SettingsModel.self, initializer: SettingsModel.init)
        injector.mainActor.register(PlayerModel.self, name: "player", scope: .singleton, initializer: PlayerModel.init)

        #expect(
            injector.graph().edges.contains {
                $0.from == DependencyKey(SettingsModel.self) && $0.to == DependencyKey(SettingsStore.self)
            })
        let model = try injector.resolve(SettingsModel.self)
        let player = try injector.resolve(PlayerModel.self, name: "player")

        #expect(model.store === (try injector.resolve(SettingsStore.self)))
        #expect(player.store === model.store)
        #expect(player === (try injector.resolve(PlayerModel.self, name: "player")))
    }

    /// Off the main actor, a main-actor initializer's resolve throws `requiresMainActor` before
    /// any of its parameters is made.
    @Test func offTheMainActorAMainActorInitializerIsATypedErrorBeforeItsParameters() async {
        let injector = DependencyInjector()
        let stores = Counter()
        injector.register(SettingsStore.self) { _ in
            stores.increment()
            return SettingsStore()
        }
        injector.mainActor.register(SettingsModel.self, initializer: SettingsModel.init)

        let error = await onOwnThread { () -> InjectionError? in
            do throws(InjectionError) {
                _ = try injector.resolve(SettingsModel.self)
                return nil
            } catch {
                return error
            }
        }

        guard case .requiresMainActor(let key, _)? = error else {
            Issue.record("expected requiresMainActor, got \(String(describing: error))")
            return
        }
        #expect(key == DependencyKey(SettingsModel.self))
        #expect(stores.value == 0)
    }

    /// `verify()` on the main actor checks a main-actor initializer without calling it, and
    /// names a missing parameter; the actor face, from a background task, awaits the main
    /// actor for it, as for the registrar's factories.
    @Test func aMainActorInitializerIsVerifiedOnTheMainActorAndAwaitedThereByTheActorFace() async throws {
        let services = AsyncDependencyInjector()
        let injector = services.synchronous
        let made = Counter()
        injector.register(made)
        injector.mainActor.register(PlayerModel.self, name: "verified", initializer: PlayerModel.init)

        let missing = await MainActor.run { () -> DependencyKey? in
            do {
                try injector.verify()
                return nil
            } catch let error as VerificationError {
                return error.failures.first?.path.last
            } catch {
                return nil
            }
        }
        injector.register(SettingsStore.self, scope: .singleton) { _ in SettingsStore() }
        await MainActor.run { #expect(throws: Never.self) { try injector.verify() } }
        #expect(made.value == 0)  // checked, not called

        let player = try await Task.detached { try await services.resolve(PlayerModel.self, name: "verified") }.value
        #expect(made.value == 1)
        #expect(missing == DependencyKey(SettingsStore.self))
        #expect(player.store === (try injector.resolve(SettingsStore.self)))
    }
}
