import TestSupport
import Testing

@testable import Injector

/// Where the wrappers of what the actor face builds meet the injector bound outside it, and
/// the actor face's `withScope`. Each test is a regression: each failed before.
@Suite struct WrapperSeamTests {
    struct Clock: Sendable {
        let time: Int
    }

    final class OptionalReport {
        @OptionalInject var clock: Clock?
    }

    final class LazyReport: @unchecked Sendable {
        // `@unchecked Sendable`: read by one task at a time in these tests.
        @LazyInject var clock: Clock
    }

    final class Transaction: Sendable {}

    final class Handler {
        @Inject var transaction: Transaction
    }

    /// The error `make { LazyReport() }` throws through `injector`, if any.
    private static func makeFailure(in injector: DependencyInjector) -> InjectionError? {
        do throws(InjectionError) {
            _ = try injector.make { LazyReport() }
            return nil
        } catch {
            return error
        }
    }

    @Test func makeRefusesALazyInjectWhoseFirstReadCouldNotRunItsFactory() async throws {
        // A scoped value with no opened scope: the read would throw `outsideScope`.
        let app = DependencyInjector()
        app.register(Clock.self, scope: .scoped) { _ in Clock(time: 1) }
        guard case .outsideScope(let key, _)? = Self.makeFailure(in: app) else {
            Issue.record("expected outsideScope, got \(String(describing: Self.makeFailure(in: app)))")
            return
        }
        #expect(key == DependencyKey(Clock.self))
        let request = app.openScope()
        #expect(try request.make { LazyReport() }.clock.time == 1)  // in a scope, it works
        try request.close()
        // An async factory: a synchronous read cannot run it.
        let server = AsyncDependencyInjector()
        await server.register(Clock.self, scope: .singleton) { _ in Clock(time: 2) }
        guard case .factoryFailed(_, _, let underlying)? = Self.makeFailure(in: server.synchronous) else {
            Issue.record("expected factoryFailed, got \(String(describing: Self.makeFailure(in: server.synchronous)))")
            return
        }
        #expect(underlying is RequiresAwait)
    }

    @Test func makeRefusesALazyInjectOfAFactoryThatTakesArgumentsOrOfAClosedScope() throws {
        let app = DependencyInjector()
        app.register(Clock.self) { (_, time: Int) in Clock(time: time) }
        guard case .argumentMismatch(_, _, let expected, let given)? = Self.makeFailure(in: app) else {
            Issue.record("expected argumentMismatch, got \(String(describing: Self.makeFailure(in: app)))")
            return
        }
        #expect(expected == ["Swift.Int"] && given.isEmpty)
        let scoped = DependencyInjector()
        scoped.register(Clock.self, scope: .scoped) { _ in Clock(time: 1) }
        let request = scoped.openScope()
        try request.close()
        guard case .closed? = Self.makeFailure(in: request) else {
            Issue.record("expected closed, got \(String(describing: Self.makeFailure(in: request)))")
            return
        }
        // A singleton of a closed injector, as its resolve would (from a review).
        let closedApp = DependencyInjector()
        closedApp.register(Clock.self, scope: .singleton) { _ in Clock(time: 1) }
        try closedApp.close()
        guard case .closed? = Self.makeFailure(in: closedApp) else {
            Issue.record("expected closed, got \(String(describing: Self.makeFailure(in: closedApp)))")
            return
        }
    }

    final class KeyPathReport {
        @Inject(\.seamClock) var clock: Clock
    }

    @Test func aKeyPathInjectOfWhatTheActorFaceBuildsFallsBackToTheInjectorBoundOutside() async throws {
        let app = DependencyInjector()
        app.values.seamClock = Clock(time: 5)
        let server = AsyncDependencyInjector()
        await server.register(Int.self) { _ in KeyPathReport().clock.time }
        let time = try await DependencyInjector.$current.withValue(app) { try await server.resolve(Int.self) }
        #expect(time == 5)
        let inScope = try await DependencyInjector.$current.withValue(app) {
            try await server.withScope { _ in KeyPathReport().clock.time }
        }
        #expect(inScope == 5)
    }

    final class ClockAudit: Sendable {
        let clock: Clock

        init(clock: Clock) {
            self.clock = clock
        }
    }

    final class AuditUser: @unchecked Sendable {
        // `@unchecked Sendable`: read by one task at a time in these tests.
        @LazyInject var audit: ClockAudit
    }

    /// Regression: the lazy property's factory, in the server's registry, needed what only the
    /// injector bound outside had; the first read, after the run, failed with `notRegistered`.
    @Test func aLazyInjectOfWhatTheActorFaceBuiltFallsBackOutsideOnItsFirstReadLater() async throws {
        let app = DependencyInjector()
        app.register(Clock(time: 5))
        let server = AsyncDependencyInjector()
        server.synchronous.register(ClockAudit.self) { r in try ClockAudit(clock: r.resolve()) }
        await server.register(AuditUser.self) { _ in AuditUser() }
        let user = try await DependencyInjector.$current.withValue(app) { try await server.resolve(AuditUser.self) }
        #expect(try user.$audit.get().clock.time == 5)
    }

    @Test func anOptionalInjectOfWhatTheActorFaceBuildsFallsBackToTheInjectorBoundOutside() async throws {
        let app = DependencyInjector()
        app.register(Clock(time: 5))
        let server = AsyncDependencyInjector()
        await server.register(Int.self) { _ in OptionalReport().clock?.time ?? -1 }
        let time = try await DependencyInjector.$current.withValue(app) { try await server.resolve(Int.self) }
        #expect(time == 5)
    }

    @Test func aLazyInjectOfWhatTheActorFaceBuildsResolvesLaterFromTheInjectorBoundOutside() async throws {
        let app = DependencyInjector()
        app.register(Clock(time: 5))
        let server = AsyncDependencyInjector()
        await server.register(LazyReport.self) { _ in LazyReport() }
        let report = try await DependencyInjector.$current.withValue(app) { try await server.resolve(LazyReport.self) }
        #expect(try report.$clock.get().time == 5)  // read later, outside the binding
    }

    @Test func theWrappersOfWhatTheActorFacesWithScopeBodyMakesResolveFromTheScope() async throws {
        let server = AsyncDependencyInjector()
        await server.register(Transaction.self, scope: .scoped) { _ in Transaction() }
        try await server.withScope { request in
            let transaction = try await request.resolve(Transaction.self)
            #expect(try Handler().$transaction.get() === transaction)
        }
    }

    /// What only the injector bound outside has.
    final class Clocked {
        @Inject var clock: Clock
    }

    @Test func theWrappersOfWhatTheActorFacesWithScopeBodyMakesFallBackToTheInjectorBoundOutside() async throws {
        let legacy = DependencyInjector()
        legacy.register(Clock(time: 5))
        let server = AsyncDependencyInjector()
        try await DependencyInjector.$current.withValue(legacy) {
            let time = try await server.withScope { _ in try Clocked().$clock.get().time }
            #expect(time == 5)
        }
    }

    @Test func aBindingMadeInsideTheWithScopeBodyIsTheFallbackOfWhatTheFaceBuildsThere() async throws {
        let outer = DependencyInjector()
        outer.register(Clock(time: 1))
        let inner = DependencyInjector()
        inner.register(Clock(time: 2))
        let server = AsyncDependencyInjector()
        await server.register(Int.self) { _ in OptionalReport().clock?.time ?? -1 }
        let time = try await DependencyInjector.$current.withValue(outer) {
            try await server.withScope { request in
                try await DependencyInjector.$current.withValue(inner) { try await request.resolve(Int.self) }
            }
        }
        #expect(time == 2)
    }

    /// An app singleton whose wrapper reads what a request may provide.
    final class Audit: Sendable {
        let clock: Clock?
        init() { clock = OptionalReport().clock }
    }

    @Test func whatARequestProvidesNeverReachesAValueTheAppKeeps() async throws {
        let server = AsyncDependencyInjector()
        await server.register(Audit.self, scope: .singleton) { _ in Audit() }
        let audit = try await server.withScope { request in
            await request.register(Clock(time: 1))
            return try await request.resolve(Audit.self)
        }
        #expect(audit.clock == nil)  // made by the app, for all
        #expect(try await server.resolve(Audit.self).clock == nil)
    }
}

extension InjectedValues {
    fileprivate var seamClock: WrapperSeamTests.Clock {
        get { self[WrapperSeamTests.ClockKeyForSeams.self] }
        set { self[WrapperSeamTests.ClockKeyForSeams.self] = newValue }
    }
}

extension WrapperSeamTests {
    fileprivate enum ClockKeyForSeams: InjectionKey {
        static var defaultValue: Clock { Clock(time: -1) }
    }
}
