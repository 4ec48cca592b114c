import Testing

@testable import Injector

/// Defects in this round's test-recorder fix (e19fef0) and review 9's fix of taken-in
/// teardowns (90e9a84), found by review 10.
@Suite struct Review10RegressionTests {
    /// Owns a child injector.
    final class Owner: Sendable {
        let child: AsyncDependencyInjector

        init(_ child: AsyncDependencyInjector) {
            self.child = child
        }
    }

    /// DESIGN.md principle 11 (reverse creation order). The app's close releases an owner of a
    /// child of another root, whose run releases an owner of a child of the app, which hands
    /// the app its async teardown: the app's run, interrupted by the other's, was out of reach
    /// (only the innermost run could take work in), so the teardown went to a task of the app:
    /// after "early", and a reset returned before it had run.
    @Test(arguments: Review8RegressionTests.Ending.allCases)
    func aRunNestedInAnotherInjectorsRunHandsTheAppsTeardownToTheAppsRun(
        ending: Review8RegressionTests.Ending
    ) async throws {
        let order = try await tornDown(ending: ending) { app, otherChild, closed in
            await otherChild.register(Owner.self, scope: .singleton) { _ in
                let appChild = app.child()
                try await Review8RegressionTests.keepTornDownAsync("child's", in: appChild, closed: closed)
                return Owner(appChild)
            }
            _ = try await otherChild.resolve(Owner.self)
        }
        #expect(order.afterEnding == (ending == .reset ? ["late", "child's", "early"] : order.afterEnding))
        #expect(order.all == ["late", "child's", "early"])
    }

    /// Review 11: the app's run, interrupted by another root's run, has a newer async teardown
    /// waiting ("y", taken in), when that run releases an older app child with a sync one ("w"):
    /// that child's records ran at once, in a run of their own, before "y". They join the app's
    /// run, in their turn.
    @Test(arguments: Review8RegressionTests.Ending.allCases)
    func anOlderChildReleasedInAnotherInjectorsRunWaitsForTheAppsNewerTeardown(
        ending: Review8RegressionTests.Ending
    ) async throws {
        let order = try await tornDown(ending: ending) { app, otherChild, closed in
            await otherChild.register(Owner.self, name: "x", scope: .singleton) { _ in
                let child = app.child()
                await child.register(Service.self, scope: .singleton) { _ in Service(label: "w") }
                    .teardown { (service: Service) in closed.append(service.label) }
                _ = try await child.resolve(Service.self)
                return Owner(child)
            }
            await otherChild.register(Owner.self, name: "z", scope: .singleton) { _ in
                let child = app.child()
                try await Review8RegressionTests.keepTornDownAsync("y", in: child, closed: closed)
                return Owner(child)
            }
            _ = try await otherChild.resolve(Owner.self, name: "x")
            _ = try await otherChild.resolve(Owner.self, name: "z")
        }
        #expect(order.all == ["late", "y", "w", "early"])
    }

    /// Fills a child of another root (its second argument) with children of the app (the first).
    typealias Populate =
        @Sendable (AsyncDependencyInjector, AsyncDependencyInjector, Collected<String>) async throws -> Void

    /// What an app keeping "early", an owner of a child of another root (which `populate` fills
    /// with the app's children), and "late" tears down: by the time `ending` returned, and once
    /// the app and the other root are closed.
    private func tornDown(
        ending: Review8RegressionTests.Ending,
        populate: @escaping Populate
    ) async throws -> (afterEnding: [String], all: [String]) {
        let app = AsyncDependencyInjector()
        let other = AsyncDependencyInjector()
        let closed = Collected<String>()
        await app.register(Service.self, name: "early", scope: .singleton) { _ in Service(label: "early") }
            .teardown { (service: Service) in closed.append(service.label) }
        await app.register(Owner.self, scope: .singleton) { _ in
            let otherChild = other.child()
            try await populate(app, otherChild, closed)
            return Owner(otherChild)
        }
        await app.register(Service.self, name: "late", scope: .singleton) { _ in Service(label: "late") }
            .teardown { (service: Service) in closed.append(service.label) }
        _ = try await app.resolve(Service.self, name: "early")
        _ = try await app.resolve(Owner.self)
        _ = try await app.resolve(Service.self, name: "late")
        try await ending.end(app, scope: .singleton)
        let afterEnding = closed.values
        try await app.close()
        try await other.close()
        return (afterEnding, closed.values)
    }

    /// Principle 12 (tests fail loudly); e19fef0 ends a test's recorder with its test, and
    /// prints what arrives after. But a plain test's `withOverrides` scope ended the recorder of
    /// the test that opened it (`binding` called `end()`), though the test went on: a failure of
    /// the test's own later work, in a task that cannot record on it, was printed as "after its
    /// test ended", and the test passed. Now what comes after the scope is recorded at once.
    @Test func aPlainTestsScopeDoesNotEndItsRecorder() {
        let recorded = Collected<String>()
        let recorder = TestIssueRecorder(endingWith: "the test", canRecordHere: { false }) { message, _ in
            recorded.append(message)
            return true
        }
        TestIssueRecorder.binding(recorder) {}  // a plain test's `withOverrides` scope, ended
        recorder.record("later work failed", at: nil)  // in a task that cannot record on the test
        #expect(recorded.values == ["later work failed"])
    }
}
