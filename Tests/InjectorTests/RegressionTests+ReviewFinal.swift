import TestSupport
import Testing

@testable import Injector

/// Review of b4540b2 (`verify()` of a closed injector builds nothing): its scratch scope is
/// closed whenever any ancestor has begun closing, while the injectors the library keeps open
/// under a closed app (a preview or test scope, a scope opened before the close, a child's own
/// registrations) go on making their values. `verify()` there reports `closed` for values a
/// resolve through the same injector makes.
@Suite struct ReviewFinalRegressionTests {
    private struct Pool: Sendable {}
    private struct Transaction: Sendable {}

    /// A preview scope of a closed app keeps its own singletons, and builds them (its `init`
    /// exempts it: "a test's scope, whose test may inspect a closed app"); its `verify()` says
    /// every one is `closed`.
    @Test
    func verifyInAPreviewScopeOfAClosedAppAgreesWithItsResolves() async throws {
        let app = DependencyInjector()
        app.register(Pool.self, scope: .singleton) { _ in Pool() }
        try app.close()
        let preview = app.previewScope()
        defer { preview.closeReportingFailures() }
        _ = try preview.resolve(Pool.self)  // built: the scope is open
        #expect(throws: Never.self) { try preview.verify() }

        let server = AsyncDependencyInjector()
        await server.register(Pool.self, scope: .singleton) { _ in Pool() }
        try await server.close()
        let asyncPreview = server.previewScope()
        _ = try await asyncPreview.resolve(Pool.self)
        await #expect(throws: Never.self) { try await asyncPreview.verify() }
        try await asyncPreview.close()
    }

    /// ServersAndRequestScopes.md: "A scope opened before the close makes its own values until
    /// its own `close()`". Its `verify()` says they are `closed`.
    @Test
    func verifyOfAScopeOpenedBeforeTheAppsCloseAgreesWithItsResolves() throws {
        let app = DependencyInjector()
        app.register(Transaction.self, scope: .scoped) { _ in Transaction() }
        let request = app.openScope()
        defer { try? request.close() }
        try app.close()
        _ = try request.resolve(Transaction.self)  // made: the request is still open
        #expect(throws: Never.self) { try request.verify() }
    }

    /// A child's own singleton is kept by the child, which its parent's close does not close;
    /// `verify()` of the child says it is `closed`.
    @Test
    func verifyOfAChildOfAClosedAppChecksItsOwnSingletons() throws {
        let app = DependencyInjector()
        let child = app.child()
        child.register(Pool.self, scope: .singleton) { _ in Pool() }
        try app.close()
        _ = try child.resolve(Pool.self)  // built and kept by the child
        #expect(throws: Never.self) { try child.verify() }
    }
}
