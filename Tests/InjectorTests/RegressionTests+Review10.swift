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
        let app = AsyncDependencyInjector()
        let other = AsyncDependencyInjector()
        let closed = Collected<String>()
        await app.register(Service.self, name: "early", scope: .singleton) { _ in Service(label: "early") }
            .teardown { (service: Service) in closed.append(service.label) }
        await app.register(Owner.self, scope: .singleton) { _ in
            let otherChild = other.child()
            await otherChild.register(Owner.self, scope: .singleton) { _ in
                let appChild = app.child()
                try await Review8RegressionTests.keepTornDownAsync("child's", in: appChild, closed: closed)
                return Owner(appChild)
            }
            _ = try await otherChild.resolve(Owner.self)
            return Owner(otherChild)
        }
        await app.register(Service.self, name: "late", scope: .singleton) { _ in Service(label: "late") }
            .teardown { (service: Service) in closed.append(service.label) }
        _ = try await app.resolve(Service.self, name: "early")
        _ = try await app.resolve(Owner.self)
        _ = try await app.resolve(Service.self, name: "late")
        try await ending.end(app, scope: .singleton)
        if ending == .reset {
            #expect(closed.values == ["late", "child's", "early"])  // awaited: run by the time it returned
        }
        try await app.close()
        #expect(closed.values == ["late", "child's", "early"])
        try await other.close()
        #expect(closed.values == ["late", "child's", "early"])
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
