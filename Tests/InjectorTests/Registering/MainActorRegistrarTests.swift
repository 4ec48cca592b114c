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
    var isPlaying = true

    init(store: SettingsStore, made: Counter?) {
        made?.increment()
        self.store = store
    }

    func stop() { isPlaying = false }
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

        await expectRequiresMainActor(resolving: SettingsModel.self, from: injector)
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

        await expectRequiresMainActor(resolving: SettingsModel.self, from: injector)
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

    /// A main-actor teardown, with no mark on its closure, touches the model's main-actor
    /// state; a close on the main actor runs it in place, in reverse creation order with the
    /// plain ones, and throws its failure. A `@MainActor` trailing closure is one too.
    @MainActor
    @Test func aMainActorTeardownRunsInPlaceInACloseOnTheMainActor() throws {
        let injector = DependencyInjector()
        let closed = Collected<String>()
        injector.register(SettingsStore.self, scope: .singleton) { _ in SettingsStore() }
            .teardown { _ in closed.append("store") }
        injector.mainActor.register(PlayerModel.self, scope: .singleton, initializer: PlayerModel.init)
            .teardown(mainActor: { player in
                player.stop()
                closed.append("player")
            })
        injector.mainActor.register(SettingsModel.self, scope: .singleton) { r in try SettingsModel(store: r.resolve())
        }
        .teardown { @MainActor model in
            closed.append(model.title)
            model.title = "closed"
            throw SampleError(code: 1)
        }
        let player = try injector.resolve(PlayerModel.self)
        let model = try injector.resolve(SettingsModel.self)

        let error = #expect(throws: TeardownError.self) { try injector.close() }

        #expect(closed.values == ["Settings", "player", "store"])
        #expect(!player.isPlaying)
        #expect(model.title == "closed")
        #expect(error?.failures.map(\.key) == [DependencyKey(SettingsModel.self)])
    }

    /// Off the main actor, a sync close cannot run a main-actor teardown: it runs on the main
    /// actor in a task, with the teardowns after it (the store's, made before the player), as
    /// an asynchronous teardown does; a plain teardown's unmarked closure is still the plain
    /// one, run in place on the closing thread.
    @Test func offTheMainActorASyncCloseRunsAMainActorTeardownThereAfterTheLaterPlainOnes() async throws {
        let injector = DependencyInjector()
        let closed = Collected<String>()
        let onMainQueue = Collected<Bool>()
        injector.register(SettingsStore.self, scope: .singleton) { _ in SettingsStore() }
            .teardown { _ in closed.append("store") }
        injector.mainActor.register(PlayerModel.self, scope: .singleton, initializer: PlayerModel.init)
            .teardown(mainActor: { player in
                onMainQueue.append(MainQueue.isCurrent)
                player.stop()
                closed.append("player")
            })
        injector.register(String.self, name: "log", scope: .singleton) { _ in "log" }
            .teardown { _ in
                onMainQueue.append(MainQueue.isCurrent)
                closed.append("log")
            }
        let player = try await MainActor.run { try injector.resolve(PlayerModel.self) }
        _ = try injector.resolve(String.self, name: "log")

        let failed = await onOwnThread { () -> Bool in
            do {
                try injector.close()
                return false
            } catch {
                return true
            }
        }
        await injector.teardownsFinished()

        #expect(!failed)
        #expect(closed.values == ["log", "player", "store"])
        #expect(onMainQueue.values == [false, true])
        #expect(await !player.isPlaying)
    }

    /// The actor face's `teardown(mainActor:)`, with no mark on its closure, is awaited on the
    /// main actor by its close.
    @Test func theActorFacesMainActorTeardownIsAwaitedThere() async throws {
        let server = AsyncDependencyInjector()
        let onMainQueue = Collected<Bool>()
        await server.register(PlayerModel.self, scope: .singleton) { @MainActor _ in
            PlayerModel(store: SettingsStore(), made: nil)
        }
        .teardown(mainActor: { player in
            onMainQueue.append(MainQueue.isCurrent)
            player.stop()
        })
        let player = try await server.resolve(PlayerModel.self)

        try await server.close()

        #expect(onMainQueue.values == [true])
        #expect(await !player.isPlaying)
    }

    /// Expects a resolve of `type` through `injector` on a thread of its own (off the main
    /// actor) to throw `requiresMainActor` for `type`.
    private func expectRequiresMainActor<T>(
        resolving type: T.Type, from injector: DependencyInjector, sourceLocation: SourceLocation = #_sourceLocation
    ) async {
        let error = await onOwnThread { () -> InjectionError? in
            do throws(InjectionError) {
                _ = try injector.resolve(type)
                return nil
            } catch {
                return error
            }
        }
        guard case .requiresMainActor(let key, _)? = error else {
            Issue.record("expected requiresMainActor, got \(String(describing: error))", sourceLocation: sourceLocation)
            return
        }
        #expect(key == DependencyKey(type), sourceLocation: sourceLocation)
    }
}
