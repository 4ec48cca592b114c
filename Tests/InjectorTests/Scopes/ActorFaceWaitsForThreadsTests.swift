import Dispatch
import Foundation
import Testing

@testable import Injector

/// Resolves on the actor face that find a value being made by a thread (a synchronous factory
/// run by the sync face of the same core: an `@Inject` read, `synchronous.resolve`) suspend
/// while it runs, as they do for a task's creation: they leave the cooperative pool free and
/// stop waiting when their task is cancelled.
@Suite struct ActorFaceWaitsForThreadsTests {
    /// How long a factory waits for what these tests release, standing in for "never": long,
    /// for a cooperative pool that the suite's other tests may keep busy for a while (under
    /// the thread sanitizer on a loaded machine, the deep-chain tests held it past 120 s once).
    /// A test passes as soon as it is released. The deadlock tests' 300 s.
    static let forever = 300

    final class Report: Sendable {}

    final class Client: Sendable {
        let tenant: Int
        init(tenant: Int) { self.tenant = tenant }
    }

    /// A factory that holds its thread until `release`, and says when it runs and has ended.
    struct SlowFactory: Sendable {
        let entered = AsyncGate()
        let release = DispatchSemaphore(value: 0)
        let ended = Counter()

        /// Runs the factory's body: `make`, once released (the time-out stands in for "never").
        func run<Value, Failure: Error>(_ make: () throws(Failure) -> Value) throws(Failure) -> Value {
            entered.open()
            _ = release.wait(timeout: .now() + .seconds(ActorFaceWaitsForThreadsTests.forever))
            ended.increment()
            return try make()
        }

        /// Whether `resolve`, begun in a task of its own while the factory runs on `thread`
        /// and cancelled at once, stops waiting before the factory ends; releases the factory
        /// then, and waits for `thread` to return.
        func cancelledResolveStopsWaiting(
            of key: DependencyKey,
            whileRunningOn thread: @escaping @Sendable () -> Void,
            _ resolve: @escaping @Sendable () async throws -> Void
        ) async -> Bool {
            let returned = DispatchSemaphore(value: 0)
            Thread {
                thread()
                returned.signal()
            }.start()
            await entered.wait()
            let started = Counter()
            let ended = self.ended
            let waiter = Task.detached { () -> Bool in
                started.increment()
                do {
                    try await resolve()
                } catch {
                    // Stopped waiting: the factory still runs.
                    return isCancellation(error, of: key) && ended.value == 0
                }
                return false
            }
            while started.value == 0 { await Task.yield() }
            waiter.cancel()
            let stoppedAtOnce = await waiter.value
            release.signal()
            await onOwnThread { returned.wait() }
            return stoppedAtOnce
        }
    }

    /// AsyncDependencies.md: "The actor suspends, never blocks, while a factory runs, so … other
    /// tasks may register and resolve meanwhile, without deadlock"; ServersAndRequestScopes.md
    /// registers a server's wrapper-facing singletons through `synchronous`. While a thread makes
    /// such a singleton, every task that resolves it on the actor face must leave its thread of
    /// the cooperative pool to others: with as many of them as the pool has threads, a factory on
    /// a thread of its own that waits for a task (here: one that loads its configuration) would
    /// otherwise wait forever; the semaphore's time-out stands in for "forever".
    @Test func tasksWaitingForAThreadsCreationLeaveThePoolFree() async throws {
        let entered = AsyncGate()
        let loaded = DispatchSemaphore(value: 0)
        let loadedInTime = Counter()
        let server = AsyncDependencyInjector()
        server.synchronous.register(Report.self, scope: .singleton) { _ in
            entered.open()
            // Waits for a task on a thread of its own, never one of the pool: allowed.
            if loaded.wait(timeout: .now() + .seconds(Self.forever)) == .success { loadedInTime.increment() }
            return Report()
        }
        let creator = Thread { _ = try? server.synchronous.resolve(Report.self) }
        creator.start()
        await entered.wait()
        // More resolves than the pool has threads, each waiting for the thread's creation.
        let count = ProcessInfo.processInfo.activeProcessorCount + 1
        let started = Counter()
        let waiters = (0..<count).map { _ in
            Task.detached {
                started.increment()
                return try await server.resolve(Report.self)
            }
        }
        while started.value < count { await Task.yield() }
        Task.detached { loaded.signal() }  // the configuration the factory waits for
        var reports: [Report] = []
        for waiter in waiters { reports.append(try await waiter.value) }
        #expect(loadedInTime.value == 1, "the task the factory waited for could not run for \(Self.forever) seconds")
        #expect(Set(reports.map(ObjectIdentifier.init)).count == 1, "one singleton, the thread's")
        #expect(try server.synchronous.resolve(Report.self) === reports.first)
    }

    /// AsyncDependencies.md, "Cancellation": "A resolve whose task is cancelled while it waits
    /// for a singleton's creation stops waiting at once", a thread's creation (the sync face of
    /// the same core) as much as a task's; the factory goes on, and its value is kept.
    @Test func aTaskWaitingForAThreadsCreationStopsWhenCancelled() async throws {
        let factory = SlowFactory()
        let server = AsyncDependencyInjector()
        server.synchronous.register(Report.self, scope: .singleton) { _ in factory.run { Report() } }
        let made = Locked<Report?>(nil)
        let stopped = await factory.cancelledResolveStopsWaiting(of: DependencyKey(Report.self)) {
            let report = try? server.synchronous.resolve(Report.self)
            made.withLock { $0 = report }
        } _: {
            _ = try await server.resolve(Report.self)
        }
        #expect(stopped, "the cancelled resolve waited for the thread's factory and got its value")
        #expect(try await server.resolve(Report.self) === made.withLock { $0 }, "the thread's value, kept")
        #expect(factory.ended.value == 1)
    }

    /// AsyncDependencies.md, "Cancellation": a task that waited for a thread's creation that
    /// failed asks again, as a waiting thread does, and makes the value itself; the failure is
    /// the thread's alone.
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)  // `.timeLimit` takes a `Duration`
    @Test(.timeLimit(.minutes(1)))
    func tasksWhoseThreadsCreationFailedMakeTheValue() async throws {
        let factory = SlowFactory()
        let runs = Counter()
        let server = AsyncDependencyInjector()
        server.synchronous.register(Report.self, scope: .singleton) { _ in
            guard runs.increment() == 1 else { return Report() }
            return try factory.run { throw SampleError(code: 1) }
        }
        let failed = DispatchSemaphore(value: 0)
        Thread {
            if (try? server.synchronous.resolve(Report.self)) == nil { failed.signal() }
        }.start()
        await factory.entered.wait()
        let waiters = (0..<3).map { _ in Task { try await server.resolve(Report.self) } }
        try await untilWaiting(3, for: Report.self, in: server)
        factory.release.signal()
        var reports: [Report] = []
        for waiter in waiters { reports.append(try await waiter.value) }
        await onOwnThread { failed.wait() }
        #expect(runs.value == 2, "the thread's run, then one of the tasks'")
        #expect(Set(reports.map(ObjectIdentifier.init)).count == 1)
        #expect(try server.synchronous.resolve(Report.self) === reports.first)
    }

    /// As above, for a `.scoped` value that a thread makes in the same opened scope, which the
    /// task's resolve finds through the walk (an observed scope publishes no table).
    @Test func aTaskWaitingForAThreadsScopedCreationStopsWhenCancelled() async throws {
        try await aTaskWaitingForAThreadsScopedCreationStopsWhenCancelled(observed: true)
    }

    /// As above, for a scoped value the task's resolve finds in a published table: that path
    /// runs the sync face's resolve, which slept while another thread created the value.
    @Test func aTaskWaitingForAThreadsScopedCreationFoundPublishedStopsWhenCancelled() async throws {
        try await aTaskWaitingForAThreadsScopedCreationStopsWhenCancelled(observed: false)
    }

    private func aTaskWaitingForAThreadsScopedCreationStopsWhenCancelled(observed: Bool) async throws {
        let factory = SlowFactory()
        let server = AsyncDependencyInjector()
        server.synchronous.register(Report.self, scope: .scoped) { _ in factory.run { Report() } }
        let request = server.openScope()
        if observed { await request.observe { _ in } }
        let made = Locked<Report?>(nil)
        let stopped = await factory.cancelledResolveStopsWaiting(of: DependencyKey(Report.self)) {
            let report = try? request.synchronous.resolve(Report.self)
            made.withLock { $0 = report }
        } _: {
            _ = try await request.resolve(Report.self)
        }
        #expect(stopped, "the cancelled resolve waited for the thread's factory")
        #expect(try await request.resolve(Report.self) === made.withLock { $0 }, "the scope kept the thread's value")
        #expect(factory.ended.value == 1)
        try await request.close()
    }

    /// As above, for a value cached by argument that a thread makes (a synchronous factory).
    @Test func aTaskWaitingForAThreadsCachedValueStopsWhenCancelled() async throws {
        let factory = SlowFactory()
        let server = AsyncDependencyInjector()
        server.synchronous.register(Client.self, caching: .strong) { (_, tenant: Int) in
            factory.run { Client(tenant: tenant) }
        }
        let made = Locked<Client?>(nil)
        let stopped = await factory.cancelledResolveStopsWaiting(of: DependencyKey(Client.self)) {
            let client = try? server.synchronous.resolve(Client.self, arguments: 1)
            made.withLock { $0 = client }
        } _: {
            _ = try await server.resolve(Client.self, arguments: 1)
        }
        #expect(stopped, "the cancelled resolve waited for the thread's factory")
        let kept = try await server.resolve(Client.self, arguments: 1)
        #expect(kept === made.withLock { $0 }, "the thread's value, kept")
        #expect(factory.ended.value == 1)
    }

    /// What a teardown that the core runs inside a task's resolve gets when it resolves, on the
    /// sync face, a value another thread is making: the teardown's own resolve, which waits as a
    /// thread does, then has that value; not a wait handed back to the task's resolve around it
    /// (found by a review: the cached value's resolve threw a private error, a singleton's spun).
    /// The task's singleton is made after its injector closed (its factory closes it), so the
    /// core tears it down at once, in the task's synchronous part. `resolve` is the teardown's;
    /// the other thread's factory is held (`hold`) until the teardown has ended or half a second
    /// has passed: a teardown that waits, as it should, is still waiting then.
    private func teardownInATasksResolve<Value: Sendable>(
        resolving resolve: @escaping @Sendable () throws -> Value,
        whileAThreadMakesItWith hold: DispatchSemaphore,
        entered: DispatchSemaphore
    ) async -> (value: Value?, handedBack: Bool) {
        let tornDown = DispatchSemaphore(value: 0)
        let outcome = Locked<(value: Value?, handedBack: Bool)>((nil, false))
        let server = AsyncDependencyInjector()
        let core = server.synchronous
        core.register(Report.self, scope: .singleton) { _ in
            try? core.close()  // a shutdown while the singleton is made: it is torn down at once
            return Report()
        }
        .teardown { _ in
            let value = try? resolve()
            let handedBack = ResolutionContext.current.handedBack != nil
            outcome.withLock { $0 = (value, handedBack) }
            tornDown.signal()
        }
        await onOwnThread { entered.wait() }
        let resolving = Task.detached { try await server.resolve(Report.self) }
        await onOwnThread {
            _ = tornDown.wait(timeout: .now() + .milliseconds(500))
            hold.signal()
        }
        _ = await resolving.result
        return outcome.withLock { $0 }
    }

    @Test func aTeardownInATasksResolveWaitsForAThreadsSingletonAsAThreadDoes() async {
        final class Pool: Sendable {}
        let (entered, hold) = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
        let other = DependencyInjector()
        other.register(Pool.self, scope: .singleton) { _ in
            entered.signal()
            _ = hold.wait(timeout: .now() + .seconds(Self.forever))
            return Pool()
        }
        let made = Locked<Pool?>(nil)
        Thread {
            let pool = try? other.resolve(Pool.self)
            made.withLock { $0 = pool }
        }.start()
        let (value, handedBack) = await teardownInATasksResolve(
            resolving: { try other.resolve(Pool.self) }, whileAThreadMakesItWith: hold, entered: entered)
        #expect(value != nil && value === made.withLock { $0 })
        #expect(!handedBack, "the teardown's resolve was handed the wait (and spun)")
    }

    @Test func aTeardownInATasksResolveWaitsForAThreadsCachedValueAsAThreadDoes() async {
        let (entered, hold) = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
        let other = DependencyInjector()
        other.register(Client.self, caching: .strong) { (_, tenant: Int) in
            entered.signal()
            _ = hold.wait(timeout: .now() + .seconds(Self.forever))
            return Client(tenant: tenant)
        }
        Thread { _ = try? other.resolve(Client.self, arguments: 7) }.start()
        let (value, handedBack) = await teardownInATasksResolve(
            resolving: { try other.resolve(Client.self, arguments: 7) }, whileAThreadMakesItWith: hold,
            entered: entered)
        #expect(value?.tenant == 7, "the teardown's resolve failed")
        #expect(!handedBack)
    }
}
