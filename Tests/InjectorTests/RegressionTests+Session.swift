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
        await app.register(Service.self, name: "early", scope: .singleton) { _ in Service(label: "early") }
            .teardown { (service: Service) in closed.append(service.label) }
        await app.register(ChildHolder.self, scope: .singleton) { _ in
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
}
