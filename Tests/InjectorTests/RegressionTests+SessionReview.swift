import Foundation
import Testing

@testable import Injector

/// Defects a second review found in the fix of `SessionRegressionTests` (an awaited run of
/// teardowns that a released child's records join), each failing at f915a81.
@Suite struct SessionReviewRegressionTests {
    static let session = Scope.named("session")

    /// A sync run of the app's teardowns (the sync face's reset or close) inside an async
    /// teardown of the app's awaited run took over the released child's async records, could
    /// not await them, and handed them to a task: they ran after "early", older, and the actor
    /// face's reset returned before them. Only a run that can await them takes them over.
    @Test(arguments: ["syncReset", "syncClose"])
    func aSyncRunInsideAnAsyncTeardownSendsTheAdoptedChildAfterOlderValues(inner: String) async throws {
        let app = AsyncDependencyInjector()
        let closed = Collected<String>()
        await SessionRegressionTests.registerEarlyAndHolder(
            in: app, scope: .singleton, childTearsDownAsync: true, closed: closed
        ) {
            if inner == "syncReset" {
                try? app.synchronous.reset(Service.self, name: "other")
            } else {
                try? app.synchronous.close()
            }
            closed.append("holder")
        }
        await app.register(Service.self, name: "other", scope: Self.session) { _ in Service(label: "other") }
            .teardown { (service: Service) in closed.append(service.label) }
        _ = try await app.resolve(Service.self, name: "early")
        _ = try await app.resolve(SessionRegressionTests.ChildHolder.self)
        _ = try await app.resolve(Service.self, name: "other")
        try await app.reset(.singleton)
        #expect(closed.values == ["other", "holder", "child's", "early"])
        try? await app.close()
        #expect(closed.values == ["other", "holder", "child's", "early"])
    }

    /// A task the async teardown starts (not awaited) inherits the awaited run (a task-local):
    /// its reset of the same injector took over the child's records waiting in the other task's
    /// run; the outer reset went on with "early", and returned before the child was torn down.
    /// Only a run of the same task takes them over.
    @Test func aTaskStartedInAnAsyncTeardownTakesOverTheOuterRunsRecords() async throws {
        let app = AsyncDependencyInjector()
        let closed = Collected<String>()
        let otherStarted = AsyncStream<Void>.makeStream()
        let release = AsyncStream<Void>.makeStream()
        await SessionRegressionTests.registerEarlyAndHolder(
            in: app, scope: .singleton, childTearsDownAsync: true, closed: closed
        ) {
            Task { try? await app.reset(Self.session) }
            for await _ in otherStarted.stream { break }
            closed.append("holder")
        }
        await app.register(Service.self, name: "other", scope: Self.session) { _ in Service(label: "other") }
            .teardown { (service: Service) async in
                closed.append(service.label)
                otherStarted.continuation.yield()
                for await _ in release.stream { break }
            }
        _ = try await app.resolve(Service.self, name: "early")
        _ = try await app.resolve(SessionRegressionTests.ChildHolder.self)
        _ = try await app.resolve(Service.self, name: "other")
        try await app.reset(.singleton)
        let afterReset = closed.values
        release.continuation.yield()
        try? await app.close()
        #expect(afterReset == ["other", "holder", "child's", "early"])
    }

    /// `runAll` held each record it took over to the run's end: a teardown-less value among them
    /// (an owner of a grandchild) was not released in its turn, so the grandchild was torn down
    /// after the nested close had returned, after "mid".
    @Test func aRecordAdoptedByANestedAwaitedRunIsReleasedInItsTurn() async throws {
        let app = AsyncDependencyInjector()
        let closed = Collected<String>()
        await app.register(Service.self, name: "mid", scope: .singleton) { _ in Service(label: "mid") }
            .teardown { (service: Service) async in closed.append(service.label) }
        await app.register(SessionRegressionTests.ChildHolder.self, scope: Self.session) { _ in
            let child = app.child()
            await child.register(Review8RegressionTests.AsyncOwner.self, scope: .singleton) { _ in
                let grandchild = app.child()
                await grandchild.register(Service.self, scope: .singleton) { _ in Service(label: "grandchild's") }
                    .teardown { (service: Service) in closed.append(service.label) }
                _ = try await grandchild.resolve(Service.self)
                return Review8RegressionTests.AsyncOwner(grandchild)
            }
            await child.register(Service.self, scope: .singleton) { _ in Service(label: "child's") }
                .teardown { (service: Service) in closed.append(service.label) }
            _ = try await child.resolve(Review8RegressionTests.AsyncOwner.self)
            _ = try await child.resolve(Service.self)
            return SessionRegressionTests.ChildHolder(child)
        }
        .teardown { (holder: SessionRegressionTests.ChildHolder) async in
            await Task.yield()
            holder.release()
            try? await app.close()
            closed.append("holder (close returned)")
        }
        _ = try await app.resolve(Service.self, name: "mid")
        _ = try await app.resolve(SessionRegressionTests.ChildHolder.self)
        try await app.reset(Self.session)
        try? await app.close()
        #expect(closed.values == ["child's", "grandchild's", "mid", "holder (close returned)"])
    }
}
