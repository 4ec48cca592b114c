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
}
