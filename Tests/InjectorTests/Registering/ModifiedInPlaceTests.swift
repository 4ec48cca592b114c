import Dispatch
import Testing

@testable import Injector

/// A registration modified in place (`.teardown`, `.initCompleted`, …, attached after the
/// `register` call returned) is the same registration: a value made before the modifier, or
/// while it was attached, stays the one value of its scope, and is closed as the registration
/// says now. Each case made a second value before.
@Suite struct ModifiedInPlaceTests {
    final class Handle: Sendable {
        let id: String
        init(_ id: String) { self.id = id }
    }

    @Test func aScopedValueMadeBeforeALateTeardownStaysTheScopesOneValueAndIsTornDown() throws {
        let closed = Collected<String>()
        let app = DependencyInjector()
        let registered = app.register(Handle.self, scope: .scoped) { _ in Handle("scoped") }
        let request = app.openScope()
        let first = try request.resolve(Handle.self)
        registered.teardown { closed.append($0.id) }

        #expect(try request.resolve(Handle.self) === first)
        try request.close()
        #expect(closed.values == ["scoped"])
    }

    @Test func anActorFaceScopedValueMadeBeforeALateTeardownStaysTheScopesOneValueAndIsTornDown() async throws {
        let closed = Collected<String>()
        let server = AsyncDependencyInjector()
        let registered = await server.register(Handle.self, scope: .scoped) { _ in Handle("scoped") }
        let request = server.openScope()
        let first = try await request.resolve(Handle.self)
        registered.teardown { value async in closed.append(value.id) }

        #expect(try await request.resolve(Handle.self) === first)
        try await request.close()
        #expect(closed.values == ["scoped"])
    }

    @Test func aTestScopesCopyMadeBeforeALateTeardownStaysItsOneCopyAndIsTornDown() throws {
        let closed = Collected<String>()
        let app = DependencyInjector()
        let registered = app.register(Handle.self, scope: .singleton) { _ in Handle("copy") }
        let test = app.testChild(strict: false, allowing: [])
        let first = try test.resolve(Handle.self)
        registered.teardown { closed.append($0.id) }

        #expect(try test.resolve(Handle.self) === first)
        try test.close()
        #expect(closed.values == ["copy"])
    }

    /// A factory whose first run waits, once it has started, until the test releases it.
    struct FirstRunWaits: Sendable {
        let runs = Collected<Int>()
        let started = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)

        func make(_ id: String) -> Handle {
            runs.append(1)
            if runs.values.count == 1 {
                started.signal()
                release.wait()
            }
            return Handle(id)
        }

        /// Runs `resolve` on a thread of its own, then `meanwhile` once the factory runs;
        /// returns what `resolve` returned, after releasing the factory.
        func resolve(
            _ resolve: @escaping @Sendable () -> Handle?,
            meanwhile: () -> Void
        ) async -> Handle? {
            async let made = onOwnThread(resolve)
            await onOwnThread { started.wait() }
            meanwhile()
            release.signal()
            return await made
        }
    }

    @Test func aSingletonMadeWhileATeardownIsAttachedIsKeptAndTornDown() async throws {
        let closed = Collected<String>()
        let factory = FirstRunWaits()
        let app = DependencyInjector()
        let registered = app.register(Handle.self, scope: .singleton) { _ in factory.make("singleton") }

        let first = await factory.resolve({ try? app.resolve(Handle.self) }) {
            registered.teardown { closed.append($0.id) }  // while the factory runs
        }

        #expect(try app.resolve(Handle.self) === first)
        #expect(factory.runs.values.count == 1)
        try app.close()
        #expect(closed.values == ["singleton"])
    }

    @Test func aScopedValueMadeWhileATeardownIsAttachedIsKeptAndTornDown() async throws {
        let closed = Collected<String>()
        let factory = FirstRunWaits()
        let app = DependencyInjector()
        let registered = app.register(Handle.self, scope: .scoped) { _ in factory.make("scoped") }
        let request = app.openScope()

        let first = await factory.resolve({ try? request.resolve(Handle.self) }) {
            registered.teardown { closed.append($0.id) }
        }

        #expect(try request.resolve(Handle.self) === first)
        #expect(factory.runs.values.count == 1)
        try request.close()
        #expect(closed.values == ["scoped"])
    }

    @Test(arguments: [Scope.singleton, .scoped])
    func aFactoryThatResolvesItsOwnKeyAfterALateTeardownMeetsItsOwnCreation(scope: Scope) async throws {
        let runs = Counter()
        let started = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let app = DependencyInjector()
        let registered = app.register(Handle.self, scope: scope) { r in
            if runs.increment() == 1 {
                started.signal()
                release.wait()
            }
            return try r.resolve(Handle.self)  // a cycle, through the version stored now
        }
        let resolver = scope == .scoped ? app.openScope() : app

        async let outcome = onOwnThread { Result { try resolver.resolve(Handle.self) } }
        await onOwnThread { started.wait() }
        registered.teardown { _ in }  // version 2, while version 1 runs
        release.signal()

        guard case .failure(InjectionError.circularDependency) = await outcome else {
            Issue.record("expected a circularDependency")
            return
        }
        // The resolve of version 2 met version 1's creation, its own: no second creation began.
        #expect(runs.value == 1)
    }

    @Test(arguments: [Scope.singleton, .scoped])
    func anActorFaceFactoryThatResolvesItsOwnKeyAfterALateTeardownIsACycleNotAHang(scope: Scope) async throws {
        let started = AsyncGate()
        let release = AsyncGate()
        let runs = Counter()
        let server = AsyncDependencyInjector()
        let registered = await server.register(Handle.self, scope: scope) { r in
            if runs.increment() == 1 {
                started.open()
                await release.wait()
            }
            return try await r.resolve(Handle.self)  // a cycle
        }
        let resolver = scope == .scoped ? server.openScope() : server
        let outcome = Task { await injectionError { try await resolver.resolve(Handle.self) } }
        await started.wait()
        registered.teardown { _ async in }  // version 2, while version 1 runs
        release.open()

        let finished = await finishesAsync(withinSeconds: 300) { _ = await outcome.value }
        #expect(finished, "the factory waited for its own creation")
        guard finished, case .circularDependency? = await outcome.value else {
            Issue.record("expected a circularDependency")
            return
        }
    }

    @Test func aLateHookRunsOnTheValuesMadeAfterItAndAScopesValueMadeBeforeItStays() throws {
        let completed = Collected<String>()
        let runs = Counter()
        let app = DependencyInjector()
        let registered = app.register(Handle.self, scope: .scoped) { _ in Handle("v\(runs.increment())") }
        let request = app.openScope()
        let first = try request.resolve(Handle.self)
        registered.initCompleted { _, handle in completed.append(handle.id) }

        #expect(try request.resolve(Handle.self) === first)  // the scope's one value, as it was made
        let next = try app.withScope { try $0.resolve(Handle.self) }
        #expect(completed.values == [next.id])
        try request.close()
    }

    @Test func everyModifierCalledThroughOneHandleAddsToTheOthers() throws {
        let closed = Collected<String>()
        let completed = Collected<String>()
        let app = DependencyInjector()
        let registered = app.register(Handle.self, scope: .singleton) { _ in Handle("live") }
        registered.teardown { closed.append($0.id) }
        registered.initCompleted { _, handle in completed.append(handle.id) }  // not chained
        registered.inTests { _ in Handle("double") }

        let inTest = try app.withOverrides({ _ in }) { try DependencyInjector.current.resolve(Handle.self).id }
        #expect(inTest == "double")
        #expect(closed.values == ["double"])  // the test scope's double, closed by the teardown
        _ = try app.resolve(Handle.self)
        #expect(completed.values == ["live"])
        try app.close()
        #expect(closed.values == ["double", "live"])
    }

    @Test func everyModifierCalledThroughOneActorFaceHandleAddsToTheOthers() async throws {
        let closed = Collected<String>()
        let server = AsyncDependencyInjector()
        let registered = await server.register(Handle.self, scope: .singleton) { _ in Handle("live") }
        registered.teardown { value async in closed.append(value.id) }
        registered.allowedInTests()  // not chained

        let inTest = try await server.withOverrides(strict: true, { _ in }) {
            try await AsyncDependencyInjector.current.resolve(Handle.self).id
        }
        #expect(inTest == "live")  // allowed: a strict scope refuses it otherwise
        #expect(closed.values == ["live"])  // the test scope's copy, closed by the teardown as it ended
    }

    final class Dependent: Sendable {
        let handle: Handle
        init(_ handle: Handle) { self.handle = handle }
    }

    @Test func aCopyWhoseTeardownCameLateIsTornDownAfterWhatWasBuiltFromIt() throws {
        let closed = Collected<String>()
        let app = DependencyInjector()
        let registered = app.register(Handle.self, scope: .singleton) { _ in Handle("handle") }
        let test = app.testChild(strict: false, allowing: [])
        test.register(Dependent.self, scope: .singleton) { r in try Dependent(r.resolve()) }
            .teardown { _ in closed.append("dependent") }
        _ = try test.resolve(Dependent.self)
        registered.teardown { closed.append($0.id) }
        _ = try test.resolve(Handle.self)  // the copy is closed by the late teardown from now on

        try test.close()
        #expect(closed.values == ["dependent", "handle"])
    }

    final class Witness: Sendable {
        let onDeinit: @Sendable () -> Void
        init(_ onDeinit: @escaping @Sendable () -> Void) { self.onDeinit = onDeinit }
        deinit { onDeinit() }
    }

    @Test func aScopeTakingALaterTeardownReleasesTheOneBeforeItOutsideItsLock() async throws {
        let app = DependencyInjector()
        let registered = app.register(Handle.self, scope: .scoped) { _ in Handle("scoped") }
        let request = app.openScope()
        _ = try request.resolve(Handle.self)
        // What the first teardown captures, and nothing else holds, uses the scope when it goes.
        registered.teardown { [witness = Witness { _ = try? request.resolve(Handle.self) }] _ in
            withExtendedLifetime(witness) {}
        }
        _ = try request.resolve(Handle.self)  // the scope's value takes the first teardown
        registered.teardown { _ in }  // the app lets go of the first
        let finished = await onOwnThread {
            // Takes the second: the first is let go after the scope's lock, not under it.
            (try? finishes(withinSeconds: 300) { _ = try? request.resolve(Handle.self) }) ?? false
        }
        #expect(finished, "the first teardown's captures went under the scope's lock, and used it")
        guard finished else { return }  // the scope's lock is held for good
        try request.close()
    }

    @Test func aSingletonWhoseTeardownCameLateIsTornDownAfterWhatWasBuiltFromIt() throws {
        let closed = Collected<String>()
        let app = DependencyInjector()
        let registered = app.register(Handle.self, scope: .singleton) { _ in Handle("handle") }
        app.register(Dependent.self, scope: .singleton) { r in try Dependent(r.resolve()) }
            .teardown { _ in closed.append("dependent") }
        _ = try app.resolve(Dependent.self)
        registered.teardown { closed.append($0.id) }

        try app.close()
        #expect(closed.values == ["dependent", "handle"])
    }

    @Test func aScopedValueWhoseTeardownCameLateIsResetInItsPlaceInCreationOrder() throws {
        let closed = Collected<String>()
        let app = DependencyInjector()
        app.register(Dependent.self, scope: .scoped) { _ in Dependent(Handle("other")) }
            .teardown { _ in closed.append("made first") }
        let registered = app.register(Handle.self, scope: .scoped) { _ in Handle("made second") }
        let request = app.openScope()
        _ = try request.resolve(Dependent.self)
        _ = try request.resolve(Handle.self)
        registered.teardown { closed.append($0.id) }
        _ = try request.resolve(Handle.self)  // takes the teardown

        try request.reset(.scoped)
        #expect(closed.values == ["made second", "made first"])  // latest first
        try request.close()
    }

    @Test func listingRegistrationsChangesNoValuesTeardown() throws {
        let closed = Collected<String>()
        let app = DependencyInjector()
        let registered = app.register(Handle.self, scope: .scoped) { _ in Handle("scoped") }
        let request = app.openScope()
        _ = try request.resolve(Handle.self)
        registered.teardown { closed.append($0.id) }
        _ = request.registrations  // diagnostics: no resolve

        try request.close()
        #expect(closed.values.isEmpty)  // as without the listing: no resolve reached the value again
    }

    @Test(arguments: [Scope.singleton, .scoped])
    func aValueMadeWhileATeardownIsAttachedAndTheKeeperClosesIsTornDownByIt(scope: Scope) async throws {
        let closed = Collected<String>()
        let factory = FirstRunWaits()
        let app = DependencyInjector()
        let registered = app.register(Handle.self, scope: scope) { _ in factory.make("made") }
        let keeper = scope == .scoped ? app.openScope() : app

        let made = await factory.resolve({ try? keeper.resolve(Handle.self) }) {
            registered.teardown { closed.append($0.id) }
            try? keeper.close()  // before the factory returns: nobody keeps its value
        }

        #expect(made == nil)  // its resolve hears `closed`
        #expect(closed.values == ["made"])  // closed as the registration says now
    }
}
