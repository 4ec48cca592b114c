import Foundation
import Testing

@testable import Injector

/// Defects found in this session's review of teardown runs.
@Suite struct SessionRegressionTests {
    /// Holds a child until its teardown lets go of it.
    final class ChildHolder: @unchecked Sendable {
        // `child` is guarded by `lock`.
        private let lock = NSLock()
        private var child: AsyncDependencyInjector?

        init(_ child: AsyncDependencyInjector) { self.child = child }

        func release() { lock.withLock { child = nil } }
    }

    /// Registers in `app` "early", a singleton, then a holder of a child of `app` (with `scope`)
    /// whose value, "child's", has a teardown (async or not); the holder's async teardown
    /// yields, lets go of the child, then runs `afterRelease`. Each teardown notes in `closed`.
    static func registerEarlyAndHolder(
        in app: AsyncDependencyInjector,
        scope: Scope,
        childTearsDownAsync: Bool,
        closed: Collected<String>,
        afterRelease: @escaping @Sendable () async -> Void
    ) async {
        await app.register(Service.self, name: "early", scope: .singleton) { _ in Service(label: "early") }
            .teardown { (service: Service) in closed.append(service.label) }
        await app.register(ChildHolder.self, scope: scope) { _ in
            let child = app.child()
            if childTearsDownAsync {
                try await Review8RegressionTests.keepTornDownAsync("child's", in: child, closed: closed)
            } else {
                await child.register(Service.self, scope: .singleton) { _ in Service(label: "child's") }
                    .teardown { (service: Service) in closed.append(service.label) }
                _ = try await child.resolve(Service.self)
            }
            return ChildHolder(child)
        }
        .teardown { (holder: ChildHolder) async in
            await Task.yield()
            holder.release()
            await afterRelease()
        }
    }

    /// DESIGN.md principle 11 (reverse creation order, awaited). An async teardown that lets
    /// go of a child after an await released it where no run of the app's teardowns was on the
    /// thread: the child's async teardown went to a task of the app, which ran after older
    /// values ("early"), and a reset returned before it had run. It joins the run awaiting the
    /// teardown, in its turn, as a release in a synchronous run does.
    @Test(arguments: Review8RegressionTests.Ending.allCases, [false, true])
    func aChildLetGoInAnAsyncTeardownIsTornDownInItsTurn(
        ending: Review8RegressionTests.Ending,
        childTearsDownAsync: Bool
    ) async throws {
        let app = AsyncDependencyInjector()
        let closed = Collected<String>()
        await Self.registerEarlyAndHolder(
            in: app, scope: .singleton, childTearsDownAsync: childTearsDownAsync, closed: closed
        ) {
            closed.append("holder")
        }
        _ = try await app.resolve(Service.self, name: "early")
        _ = try await app.resolve(ChildHolder.self)
        try await ending.end(app, scope: .singleton)
        if ending == .reset {
            #expect(closed.values == ["holder", "child's", "early"])
        }
        try await app.close()  // awaits whatever still runs, so that the order is read whole
        #expect(closed.values == ["holder", "child's", "early"])
    }

    static let session = Scope.named("session")

    /// Review of the fix above: records that a reset (not a release) hands over in an async
    /// teardown joined the awaited run, so the actor face's `reset(_:name:)` returned before
    /// the value it dropped was torn down (it awaits the tasks a hand-over starts).
    @Test func aResetOfOneValueInAnAsyncTeardownAwaitsItsTeardown() async throws {
        let app = AsyncDependencyInjector()
        let closed = Collected<String>()
        let seen = Collected<String>()
        await app.register(Service.self, name: "other", scope: .singleton) { _ in Service(label: "other") }
            .teardown { (service: Service) async in closed.append(service.label) }
        await app.register(Service.self, name: "trigger", scope: Self.session) { _ in Service(label: "trigger") }
            .teardown { (service: Service) async in
                await Task.yield()
                try? await app.reset(Service.self, name: "other")
                seen.append("after reset: \(closed.values)")
                closed.append(service.label)
            }
        _ = try await app.resolve(Service.self, name: "other")
        _ = try await app.resolve(Service.self, name: "trigger")
        try await app.reset(Self.session)
        try await app.close()
        #expect(seen.values == ["after reset: [\"other\"]"])
    }

    /// Review of the fix above: a teardown that lets go of a child, then closes its injector:
    /// the nested close did not see the child's records waiting in the outer run, tore down
    /// an older value first, and returned before the child was torn down. A run of the same
    /// injector that begins meanwhile takes them over, as a thread's nested run shares the thread's.
    @Test(arguments: [false, true])
    func aCloseAfterLettingGoOfAChildInAnAsyncTeardownTearsTheChildDownFirst(childTearsDownAsync: Bool)
        async throws
    {
        let app = AsyncDependencyInjector()
        let closed = Collected<String>()
        await Self.registerEarlyAndHolder(
            in: app, scope: Self.session, childTearsDownAsync: childTearsDownAsync, closed: closed
        ) {
            try? await app.close()
            closed.append("holder (close returned)")
        }
        _ = try await app.resolve(Service.self, name: "early")
        _ = try await app.resolve(ChildHolder.self)
        try await app.reset(Self.session)
        try await app.close()
        #expect(closed.values == ["child's", "early", "holder (close returned)"])
    }
}
