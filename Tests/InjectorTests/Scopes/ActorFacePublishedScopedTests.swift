import TestSupport
import Testing

@testable import Injector

/// An app's `.scoped` registration with an async factory, which a request's resolve finds in the
/// app's published table and claims in the scope without the walk: every rule the walk keeps,
/// kept on this path too (from a review of that path).
@Suite struct ActorFacePublishedScopedTests {
    final class Box: Sendable {
        let label: String
        init(_ label: String) { self.label = label }
    }
    final class Session: Sendable {
        let box: Box
        init(box: Box) { self.box = box }
    }

    /// The sync face of a request scope finds the app's async scoped registration in the table:
    /// it says to await it, then shares the value the actor face made.
    @Test func theSyncFaceSaysToAwaitAndSharesTheActorFacesValue() async throws {
        let server = AsyncDependencyInjector()
        let made = Collected<Int>()
        await server.register(Box.self, scope: .scoped) { _ in
            made.append(1)
            return Box("a")
        }
        let request = server.openScope()
        let error = await injectionError { try request.synchronous.resolve(Box.self) }
        guard case .factoryFailed(let key, _, let underlying)? = error else {
            Issue.record("got \(String(describing: error))")
            return
        }
        #expect(key == DependencyKey(Box.self))
        #expect(String(describing: type(of: underlying)).contains("RequiresAwait"))
        let value = try await request.resolve(Box.self)
        #expect(try request.synchronous.resolve(Box.self) === value)
        #expect(try await request.resolve(Box.self) === value)
        #expect(made.values == [1])
        try await request.close()
    }

    /// A value cached by argument (kept past the request) asks for a scoped value found in the table.
    @Test(arguments: [false, true]) func aValueCachedByArgumentThatAsksForItIsACaptive(observed: Bool) async throws {
        let server = AsyncDependencyInjector()
        await server.register(Box.self, scope: .scoped) { _ in Box("a") }
        await server.register(Session.self, caching: .strong) { (r, _: Int) in try await Session(box: r.resolve()) }
        let request = server.openScope()
        if observed { await request.observe { _ in } }
        let error = await injectionError { try await request.resolve(Session.self, arguments: 1) }
        guard case .captiveDependency(let key, _, let holder, _)? = error else {
            Issue.record("observed \(observed): got \(String(describing: error))")
            return
        }
        #expect(key == DependencyKey(Box.self))
        #expect(holder == DependencyKey(Session.self))
        try await request.close()
    }

    /// A decorator in a child between the app and the scope wraps the app's async scoped value.
    @Test(arguments: [false, true]) func aDecoratorOfAChildBetweenTheAppAndTheScopeWrapsIt(observed: Bool) async throws
    {
        let server = AsyncDependencyInjector()
        await server.register(Box.self, scope: .scoped) { _ in Box("a") }
        let middle = server.child()
        await middle.decorate(Box.self) { _, inner in Box(inner.label + "+m") }
        let request = middle.openScope()
        if observed { await request.observe { _ in } }
        #expect(try await request.resolve(Box.self).label == "a+m")
        try await request.close()
    }

    /// A child between the app and the scope overrides the key, registered after the scope
    /// made the app's value: the scope then gives the child's.
    @Test func anOverrideRegisteredAboveTheScopeAfterUseIsUsedFromThenOn() async throws {
        let server = AsyncDependencyInjector()
        let closed = Collected<String>()
        await server.register(Box.self, scope: .scoped) { _ in Box("app") }.teardown { closed.append($0.label) }
        let middle = server.child()
        let request = middle.openScope()
        #expect(try await request.resolve(Box.self).label == "app")
        await middle.register(Box.self, scope: .scoped) { _ in Box("middle") }.teardown { closed.append($0.label) }
        #expect(try await request.resolve(Box.self).label == "middle")
        #expect(try await request.resolve(Box.self).label == "middle")
        try await request.close()
        #expect(closed.values.sorted() == ["app", "middle"])
    }

    /// Replaced while a second resolve waits for the first's creation: the waiter gets the new one's.
    @Test func aWaiterGetsTheNewRegistrationsValueWhenItWasReplacedMeanwhile() async throws {
        let server = AsyncDependencyInjector()
        let gate = AsyncGate()
        await server.register(Box.self, scope: .scoped) { _ in
            await gate.wait()
            return Box("old")
        }
        let request = server.openScope()
        let first = Task { try await request.resolve(Box.self) }
        let second = Task { try await request.resolve(Box.self) }
        try await untilWaiting(1, for: Box.self, in: request)
        await server.register(Box.self, scope: .scoped) { _ in Box("new") }
        gate.open()
        let labels = [try await first.value.label, try await second.value.label].sorted()
        #expect(labels == ["new", "old"])
        try await request.close()
    }

    /// A scope opened under a child of a closed app is closed from the start: it builds nothing.
    @Test func aScopeOpenedUnderAChildOfAClosedAppBuildsNothing() async throws {
        let server = AsyncDependencyInjector()
        await server.register(Box.self, scope: .scoped) { _ in Box("a") }
        let middle = server.child()
        try await server.close()
        let request = middle.openScope()
        let error = await injectionError { try await request.resolve(Box.self) }
        guard case .closed? = error else {
            Issue.record("got \(String(describing: error))")
            return
        }
    }

    /// Cycle through a resolver's resolve of a scoped value found in the table, two levels.
    @Test func aTwoLevelCycleIsReportedAndLeavesNothingClaimed() async throws {
        final class A: Sendable {}
        final class B: Sendable {}
        let server = AsyncDependencyInjector()
        await server.register(A.self, scope: .scoped) { r in
            _ = try await r.resolve(B.self)
            return A()
        }
        await server.register(B.self, scope: .scoped) { r in
            _ = try await r.resolve(A.self)
            return B()
        }
        let request = server.openScope()
        let error = await injectionError { try await request.resolve(A.self) }
        #expect(cycleNames(error) == ["A", "B", "A"])
        // And nothing is left claimed: a later resolve throws the cycle again, not a hang.
        let again = await injectionError { try await request.resolve(B.self) }
        #expect(cycleNames(again) == ["B", "A", "B"])
        try await request.close()
    }

    /// A factory that fails releases its claim; the next resolve makes it again.
    @Test func aFailedFactoryLetsTheNextResolveTryAgain() async throws {
        struct Boom: Error {}
        let server = AsyncDependencyInjector()
        let count = Collected<Int>()
        await server.register(Box.self, scope: .scoped) { _ in
            count.append(1)
            if count.values.count == 1 { throw Boom() }
            return Box("ok")
        }
        let request = server.openScope()
        let error = await injectionError { try await request.resolve(Box.self) }
        guard case .factoryFailed? = error else {
            Issue.record("got \(String(describing: error))")
            return
        }
        #expect(try await request.resolve(Box.self).label == "ok")
        try await request.close()
    }

    /// Twenty tasks of one request ask at once: one value, made once.
    @Test func manyTasksOfOneRequestGetOneValue() async throws {
        let (made, gate) = (Collected<Int>(), AsyncGate())
        let request = await requestWithGatedBox(made: made, gate: gate)
        let tasks = (0..<20).map { _ in Task { try await request.resolve(Box.self) } }
        try await untilWaiting(19, for: Box.self, in: request)
        gate.open()
        var ids = Set<ObjectIdentifier>()
        for task in tasks { ids.insert(ObjectIdentifier(try await task.value)) }
        #expect(ids.count == 1)
        #expect(made.values == [1])
        try await request.close()
    }

    /// The creating task is cancelled while another waits: the waiter makes the value itself.
    @Test func aWaiterMakesTheValueWhenItsCreatorIsCancelled() async throws {
        let (made, gate) = (Collected<Int>(), AsyncGate())
        let request = await requestWithGatedBox(made: made, gate: gate)
        let creator = Task { try await request.resolve(Box.self) }
        while made.values.isEmpty { await Task.yield() }
        let waiter = Task { try await request.resolve(Box.self) }
        try await untilWaiting(1, for: Box.self, in: request)
        creator.cancel()
        gate.open()
        #expect(await failure(of: creator) != nil)
        #expect(try await waiter.value.label == "a")
        #expect(made.values == [1, 1])
        try await request.close()
    }

    /// A request of an app whose `.scoped` `Box` is made after `gate` opens (each run noted in
    /// `made`), and not at all once its task is cancelled.
    private func requestWithGatedBox(made: Collected<Int>, gate: AsyncGate) async -> AsyncDependencyInjector {
        let server = AsyncDependencyInjector()
        await server.register(Box.self, scope: .scoped) { _ in
            made.append(1)
            await gate.wait()
            try Task.checkCancellation()
            return Box("a")
        }
        return server.openScope()
    }
}
