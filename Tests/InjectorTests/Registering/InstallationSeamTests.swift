import Injector
import TestSupport
import Testing

/// A module that caches a session per user, replaces that registration, then fails.
private struct CachingThenFailingModule: DependencyModule {
    let tornDown: Counter

    func register(in injector: DependencyInjector) throws(InjectionError) {
        let tornDown = self.tornDown
        injector.register(String.self, name: "session", caching: .strong, teardown: { _ in tornDown.increment() }) {
            (_, user: Int) in "session \(user)"
        }
        _ = try injector.resolve(String.self, name: "session", arguments: 1)  // kept by the cache
        injector.register(String.self, name: "session", caching: .strong) { (_, user: Int) in "v2 \(user)" }
        _ = try injector.resolve(String.self, name: "session", arguments: 1)  // kept by the second one's
        _ = try injector.resolve(Int.self, name: "missing")  // the module fails
    }
}

/// A module that starts a task which registers once `gate` opens, after `install` returned.
private struct LateRegisteringModule: DependencyModule {
    let gate: AsyncGate
    let registered: Collected<Task<Void, Never>>

    func register(in injector: DependencyInjector) {
        injector.register("now", name: "now")
        let gate = self.gate
        registered.append(
            Task {
                await gate.wait()
                injector.register(Service.self, scope: .singleton) { _ in Service(label: "late") }
            })
    }
}

/// A module that registers half, then fails.
private struct HalfModule: DependencyModule {
    func register(in injector: DependencyInjector) throws(InjectionError) {
        injector.register("half", name: "half")
        _ = try injector.resolve(Int.self, name: "missing")
        injector.register("other half", name: "other half")
    }
}

/// A module that installs `HalfModule`, going on without it when it fails.
private struct CatchingModule: DependencyModule {
    func register(in injector: DependencyInjector) {
        do { try injector.install(HalfModule()) } catch {}
        injector.register("outer", name: "outer")
    }
}

private struct AsyncHalfModule: AsyncDependencyModule {
    func register(in injector: AsyncDependencyInjector) async throws(InjectionError) {
        await injector.register("half", name: "half")
        _ = try await injector.resolve(Int.self, name: "missing")
        await injector.register("other half", name: "other half")
    }
}

private struct AsyncCatchingModule: AsyncDependencyModule {
    func register(in injector: AsyncDependencyInjector) async {
        do { try await injector.install(AsyncHalfModule()) } catch {}
        await injector.register("outer", name: "outer")
    }
}

/// What `install` leaves behind at its seams with the rest of the injector.
@Suite struct InstallationSeamTests {
    /// A failed installation takes back the values its own registrations cached per argument
    /// tuple, torn down, and leaves no cache behind. (Catches: the cache of its first
    /// registration was put back as if it had been there before, its value torn down only by
    /// `close()`.)
    @Test func aFailedInstallTearsDownWhatItsRegistrationsCached() throws {
        let injector = DependencyInjector()
        let tornDown = Counter()
        #expect(throws: InjectionError.self) { try injector.install(CachingThenFailingModule(tornDown: tornDown)) }
        #expect(!injector.isRegistered(String.self, name: "session"))
        #expect(tornDown.value == 1)
        try injector.close()
        #expect(tornDown.value == 1)  // once
    }

    /// An `install` inside a module is part of the outer installation: when it throws, the
    /// whole installation fails with its error, even if the module catches it, and nothing of
    /// it stays; once the cause is fixed, installing again registers all of it. (Catches: the
    /// inner module's first half stayed registered, and the module was marked installed, so a
    /// later install skipped it.)
    @Test func aFailedInstallInsideAModuleFailsTheWholeInstallation() throws {
        let injector = DependencyInjector()
        #expect(throws: InjectionError.self) { try injector.install(CatchingModule()) }
        #expect(!injector.isRegistered(String.self, name: "half"))
        #expect(!injector.isRegistered(String.self, name: "outer"))
        injector.register(1, name: "missing")
        try injector.install(CatchingModule())
        #expect(injector.isRegistered(String.self, name: "other half"))
        #expect(injector.isRegistered(String.self, name: "outer"))
    }

    @Test func aFailedInstallInsideAModuleFailsTheWholeInstallationOnTheActorFace() async throws {
        let injector = AsyncDependencyInjector()
        await #expect(throws: InjectionError.self) { try await injector.install(AsyncCatchingModule()) }
        #expect(!(await injector.isRegistered(String.self, name: "half")))
        #expect(!(await injector.isRegistered(String.self, name: "outer")))
        await injector.register(1, name: "missing")
        try await injector.install(AsyncCatchingModule())
        #expect(await injector.isRegistered(String.self, name: "other half"))
        #expect(await injector.isRegistered(String.self, name: "outer"))
    }

    /// A registration from a task that a module started, made once `install` has returned, is
    /// no longer the installation's: what it replaces is torn down then. (Catches: the task
    /// inherited the installation, which journaled the replacement and never ended again; the
    /// teardown was lost, `close()` included.)
    @Test func aTaskAModuleStartedRegistersAsItselfOnceInstallReturned() async throws {
        let injector = DependencyInjector()
        let tornDown = Counter()
        injector.register(Service.self, scope: .singleton) { _ in Service(label: "first") }
            .teardown { _ in tornDown.increment() }
        let first = try injector.resolve(Service.self)
        let gate = AsyncGate()
        let tasks = Collected<Task<Void, Never>>()
        try injector.install(LateRegisteringModule(gate: gate, registered: tasks))
        gate.open()
        for task in tasks.values { await task.value }
        #expect(try injector.resolve(Service.self) !== first)
        #expect(tornDown.value == 1)
        try injector.close()
        #expect(tornDown.value == 1)
    }
}
