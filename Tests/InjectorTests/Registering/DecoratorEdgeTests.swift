import Dispatch
import Injector
import TestSupport
import Testing

// The decorated service is `DecoratorTests`' `Salutation`, of this target's own.

final class RvClient: Sendable {
    let id: Int
    init(_ id: Int) { self.id = id }
}

/// Decorated by the argument-caching test only.
protocol RvTenant: Sendable { var layers: [String] { get } }
final class RvPlainTenant: RvTenant {
    let layers = ["base"]
}
final class RvTenantLayer: RvTenant {
    let inner: any RvTenant
    var layers: [String] { ["logging"] + inner.layers }
    init(_ inner: any RvTenant) { self.inner = inner }
}

final class RvEngine: Sendable {}
final class RvWheels: Sendable {}
final class RvCar: Sendable {
    let engine: RvEngine
    init(_ engine: RvEngine) { self.engine = engine }
}
struct RvNoEngine: Error {}

/// Decorated by the verify test only.
protocol RvReport: Sendable {}
final class RvPlainReport: RvReport {}
final class RvSignedReport: RvReport {
    let inner: any RvReport
    init(_ inner: any RvReport, key: String) { self.inner = inner }
}

struct RvDecoratingThenFailing: DependencyModule {
    func register(in injector: DependencyInjector) throws(InjectionError) {
        injector.decorate((any Salutation).self, name: "install") { _, inner in Layer("module", inner) }
        _ = try injector.resolve((any Salutation).self, name: "install")  // a module may resolve
        _ = try injector.resolve(Int.self, name: "rv not registered")  // fails the installation
    }
}

struct RvReplacingThenFailing: DependencyModule {
    func register(in injector: DependencyInjector) throws(InjectionError) {
        injector.register(RvClient.self, caching: .strong) { (_, id: Int) in RvClient(id + 100) }
        _ = try injector.resolve(Int.self, name: "rv not registered")  // fails the installation
    }
}

/// The edges of decorators, initializer checks and caching teardown found by a review of
/// issue 30's change: each a behaviour the docs promise.
@Suite struct DecoratorEdgeTests {
    // MARK: verify() dry run

    /// On the actor face, an async closure factory that resolves a *synchronous* initializer
    /// registration gets the dry run's marker error: the synchronous depth (thread context)
    /// is compared with the async depth verify() bound. The closure stops there, so what it
    /// needs next is never checked.
    @Test func asyncVerifyReportsWhatAClosureNeedsAfterASynchronousInitializer() async throws {
        let server = AsyncDependencyInjector()
        server.synchronous.register(RvEngine.self, initializer: { RvEngine() })
        await server.register(RvCar.self) { r in
            let engine = try await r.resolve(RvEngine.self)
            _ = try await r.resolve(RvWheels.self)  // not registered: a real failure
            return RvCar(engine)
        }
        await #expect(throws: VerificationError.self) { try await server.verify() }
        // The sync face reports it.
        let app = DependencyInjector()
        app.register(RvEngine.self, initializer: { RvEngine() })
        app.register(RvCar.self) { r in
            let engine = try r.resolve(RvEngine.self)
            _ = try r.resolve(RvWheels.self)
            return RvCar(engine)
        }
        #expect(throws: VerificationError.self) { try app.verify() }
    }

    /// The same marker reaches user code, which may turn it into its own error: a false failure.
    @Test func asyncVerifyDoesNotHandTheDryRunMarkerToAClosureFactory() async throws {
        let server = AsyncDependencyInjector()
        server.synchronous.register(RvEngine.self, initializer: { RvEngine() })
        await server.register(RvCar.self) { r in
            do {
                return RvCar(try await r.resolve(RvEngine.self))
            } catch {
                throw RvNoEngine()
            }
        }
        _ = try await server.resolve(RvCar.self)  // the graph works
        try await server.verify()  // throws: RvCar failed with RvNoEngine
    }

    /// `verify()` "runs the decorators with the factories"; an initializer's registration is
    /// checked without being built, so its decorators never run and their failures are missed.
    @Test func verifyRunsTheDecoratorsOfAnInitializerRegistration() async throws {
        let app = DependencyInjector()
        app.register((any RvReport).self, initializer: { () -> any RvReport in RvPlainReport() })
        app.decorate((any RvReport).self) { r, inner in
            try RvSignedReport(inner, key: r.resolve(String.self, name: "rv signing key"))  // not registered
        }
        #expect(throws: InjectionError.self) { try app.resolve((any RvReport).self) }  // fails at run time
        #expect(throws: VerificationError.self) { try app.verify() }  // but verify() passes
    }

    // MARK: Decorators

    /// An argument-cached value is kept undecorated and wrapped again on every resolve: the
    /// "decorated once, before its scope keeps it" rule is broken, and identity is lost.
    @Test func anArgumentCachedValueIsDecoratedOnceAndKept() throws {
        let injector = DependencyInjector()
        let decoratorRuns = Counter()
        injector.register((any RvTenant).self, caching: .strong) { (_, id: Int) -> any RvTenant in RvPlainTenant() }
        injector.decorate((any RvTenant).self) { _, inner in
            decoratorRuns.increment()
            return RvTenantLayer(inner)
        }
        let first = try injector.resolve((any RvTenant).self, arguments: 1)
        let second = try injector.resolve((any RvTenant).self, arguments: 1)
        #expect(first.layers == ["logging", "base"])
        #expect(first as AnyObject === second as AnyObject)
        #expect(decoratorRuns.value == 1)
    }

    /// A failed install takes its decorator back, but a singleton it decorated meanwhile
    /// stays wrapped by the removed layer.
    @Test func aFailedInstallLeavesNoValueWrappedByItsDecorator() throws {
        let injector = DependencyInjector()
        injector.register((any Salutation).self, name: "install", scope: .singleton) { _ in PlainSalutation() }
        #expect(throws: InjectionError.self) { try injector.install(RvDecoratingThenFailing()) }
        #expect(try injector.resolve((any Salutation).self, name: "install").layers == ["base"])
    }

    /// decorate(): "A value this injector already keeps for the key is let go ... so that the
    /// next resolve is decorated." A `.own` child / test scope keeps copies of its ancestors'
    /// singletons, and an opened scope its scoped values; neither is let go.
    @Test func decoratingAnOwnChildOrOpenedScopeLetsGoOfTheValueItKeeps() throws {
        let app = DependencyInjector()
        app.register((any Salutation).self, name: "own", scope: .singleton) { _ in PlainSalutation() }
        app.register((any Salutation).self, name: "scoped", scope: .scoped) { _ in PlainSalutation() }

        let own = app.child(singletons: .own)
        _ = try own.resolve((any Salutation).self, name: "own")
        own.decorate((any Salutation).self, name: "own") { _, inner in Layer("late", inner) }
        #expect(try own.resolve((any Salutation).self, name: "own").layers == ["late", "base"])

        let request = app.openScope()
        _ = try request.resolve((any Salutation).self, name: "scoped")
        request.decorate((any Salutation).self, name: "scoped") { _, inner in Layer("late", inner) }
        #expect(try request.resolve((any Salutation).self, name: "scoped").layers == ["late", "base"])
    }

    /// A key that `implements` forwards is a transient of its own; decorating the
    /// implementation's key decorates the singleton once, and the forwarded key gets it.
    @Test func aSingletonDecoratedThroughItsImplementationsKeyIsDecoratedOnceForItsForwardedKeys() throws {
        let injector = DependencyInjector()
        let runs = Counter()
        injector.register((any Salutation).self, name: "implementation", scope: .singleton) { _ in PlainSalutation() }
            .implements((any Salutation).self, name: "forwarded")
        injector.decorate((any Salutation).self, name: "implementation") { _, inner in
            runs.increment()
            return Layer("logging", inner)
        }
        let first = try injector.resolve((any Salutation).self, name: "forwarded")
        let second = try injector.resolve((any Salutation).self, name: "forwarded")
        #expect(first.layers == ["logging", "base"])
        #expect(first as AnyObject === second as AnyObject)
        #expect(runs.value == 1)
    }

    // MARK: register(_:caching:teardown:)

    /// close(): "every later resolve that would create a value for it to keep" throws
    /// `closed`. An argument-cached value made after close() is kept in a new cache and never
    /// torn down.
    @Test func anArgumentCachedValueAfterCloseIsRefusedLikeASingleton() throws {
        let injector = DependencyInjector()
        let closed = Counter()
        injector.register(RvClient.self, caching: .strong, teardown: { _ in closed.increment() }) {
            (_, id: Int) in RvClient(id)
        }
        injector.register(RvEngine.self, scope: .singleton) { _ in RvEngine() }
        try injector.close()

        #expect(throws: InjectionError.self) { try injector.resolve(RvEngine.self) }  // refused
        #expect(throws: InjectionError.self) { try injector.resolve(RvClient.self, arguments: 1) }  // kept
    }

    /// A `.own` child (a test scope) that cached values of an ancestor's registration the
    /// ancestor has since replaced holds the last reference to it: `close()` releases it, and
    /// what its factory captures, after the child's lock (under it, a `deinit` that uses the
    /// child waited forever).
    @Test func closeReleasesAReplacedRegistrationOfAnArgumentCacheOutsideItsLock() throws {
        final class UsesInjectorOnDeinit: Sendable {
            let injector: DependencyInjector
            let saw: Collected<Bool>
            init(_ injector: DependencyInjector, _ saw: Collected<Bool>) {
                self.injector = injector
                self.saw = saw
            }
            deinit { saw.append(injector.isRegistered(RvClient.self)) }
        }
        let saw = Collected<Bool>()
        let finished = try finishes(withinSeconds: 5) {
            let app = DependencyInjector()
            let test = app.child(singletons: .own)
            do {
                let probe = UsesInjectorOnDeinit(test, saw)
                app.register(RvClient.self, caching: .strong) { (_, id: Int) in
                    _ = probe
                    return RvClient(id)
                }
            }
            _ = try test.resolve(RvClient.self, arguments: 1)  // the child keeps a cache for it
            app.register(RvClient.self, caching: .strong) { (_, id: Int) in RvClient(id) }  // replaced
            try test.close()
        }
        #expect(finished)
        #expect(saw.values == [true])
    }

    /// A failed install puts the replaced registration back, but the values its cache kept
    /// were torn down at once (a replaced singleton's teardown waits for the install's end).
    @Test func aFailedInstallDoesNotTearDownTheArgumentCacheOfTheRegistrationItPutsBack() throws {
        let injector = DependencyInjector()
        let closed = Counter()
        injector.register(RvClient.self, caching: .strong, teardown: { _ in closed.increment() }) {
            (_, id: Int) in RvClient(id)
        }
        let before = try injector.resolve(RvClient.self, arguments: 1)

        #expect(throws: InjectionError.self) { try injector.install(RvReplacingThenFailing()) }

        #expect(closed.value == 0)  // torn down, though the registration is back
        #expect(try injector.resolve(RvClient.self, arguments: 1) === before)
    }
}
