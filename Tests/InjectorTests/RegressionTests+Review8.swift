import Injector
import Testing

/// Defects in the release of kept values in their turn (26885b1, 939a821), found by review 8.
@Suite struct Review8RegressionTests {
    /// An app value that owns a plain child of the app, on the actor face.
    final class AsyncOwner: Sendable {
        let child: AsyncDependencyInjector
        init(_ child: AsyncDependencyInjector) { self.child = child }
    }

    /// How the app lets go of its singletons.
    enum Ending: String, CaseIterable, Sendable {
        case close, syncClose, reset, syncReset

        /// Lets `injector` go of its values of `scope`, as this ending does.
        func end(_ injector: AsyncDependencyInjector, scope: Scope) async throws {
            switch self {
            case .close: try await injector.close()
            case .syncClose: try injector.synchronous.close()
            case .reset: try await injector.reset(scope)
            case .syncReset: try injector.synchronous.reset(scope)
            }
        }
    }

    /// Registers in `app`, with `scope`, "early", an owner of the child that `child` makes, and
    /// "late", whose teardowns note their labels in `closed`; resolves them in that order
    /// through `injector`, and meanwhile has the owner's child keep what `keep` gives it.
    static func keepOwnerBetweenTwo(
        in app: AsyncDependencyInjector,
        through injector: AsyncDependencyInjector,
        scope: Scope,
        closed: Collected<String>,
        child: @escaping @Sendable (AsyncResolver) -> AsyncDependencyInjector,
        keep: (AsyncDependencyInjector) async throws -> Void
    ) async throws {
        await app.register(Service.self, name: "early", scope: scope) { _ in Service(label: "early") }
            .teardown { (service: Service) in closed.append(service.label) }
        await app.register(AsyncOwner.self, scope: scope, factory: { r in AsyncOwner(child(r)) })
        await app.register(Service.self, name: "late", scope: scope) { _ in Service(label: "late") }
            .teardown { (service: Service) in closed.append(service.label) }
        _ = try await injector.resolve(Service.self, name: "early")
        try await keep(try await injector.resolve(AsyncOwner.self).child)
        _ = try await injector.resolve(Service.self, name: "late")
    }

    /// Has `injector` keep a singleton `label`, whose asynchronous teardown notes it in `closed`.
    static func keepTornDownAsync(_ label: String, in injector: AsyncDependencyInjector, closed: Collected<String>)
        async throws
    {
        await injector.register(Service.self, scope: .singleton) { _ in Service(label: label) }
            .teardown { (service: Service) async in closed.append(service.label) }
        _ = try await injector.resolve(Service.self)
    }

    /// DESIGN.md principle 11 (reverse creation order). 26885b1 and 939a821 release a
    /// teardown-less owner in its turn, so that the plain child it owns is torn down there; but
    /// the child is torn down in its `deinit` (`heir.tearDown(releasedScopeKeeping:)` →
    /// `tearDown(_:)`), which cannot await: its asynchronous teardown goes to a task of the app
    /// (`runLater`), and the run that released the owner goes on with "early" at once. The
    /// actor face's close (in place, 939a821, as bound: both) awaits that task only in its
    /// second round; a reset of the scope (`tearDownAwaiting`) not at all; a sync close (and
    /// the sync face's reset) runs "early" in place though the rule is that from the first
    /// async teardown met, the rest run after it. So the child's singleton, made after "early",
    /// is torn down after it (and the actor face's `reset` may return before it has run: the
    /// task runs concurrently).
    @Test(arguments: Ending.allCases)
    func aChildsAsyncTeardownSetOffInItsOwnersTurnRunsInItsTurn(ending: Ending) async throws {
        let app = AsyncDependencyInjector()
        let closed = Collected<String>()
        try await Self.keepOwnerBetweenTwo(
            in: app, through: app, scope: .singleton, closed: closed, child: { _ in app.child() }
        ) { child in
            try await Self.keepTornDownAsync("child's", in: child, closed: closed)
        }
        try await ending.end(app, scope: .singleton)
        try await app.close()  // awaits whatever still runs, so that the order is read whole
        #expect(closed.values == ["late", "child's", "early"])
    }

    /// The same, for an opened scope's values (which its close runs from their slots) and a
    /// plain child of the scope that one of them owns.
    @Test(arguments: Ending.allCases)
    func aScopedOwnersChildsAsyncTeardownRunsInItsTurn(ending: Ending) async throws {
        let app = AsyncDependencyInjector()
        let closed = Collected<String>()
        let request = app.openScope()
        try await Self.keepOwnerBetweenTwo(
            in: app, through: request, scope: .scoped, closed: closed, child: { r in r.injector.child() }
        ) { child in
            try await Self.keepTornDownAsync("child's", in: child, closed: closed)
        }
        try await ending.end(request, scope: .scoped)
        try await request.close()
        #expect(closed.values == ["late", "child's", "early"])
    }

    /// The same, a level down: the owner's child keeps an owner of another child of the app,
    /// whose async teardown its release sets off while the child's values are torn down.
    @Test func aGrandchildsAsyncTeardownRunsInItsOwnersTurn() async throws {
        let app = AsyncDependencyInjector()
        let closed = Collected<String>()
        try await Self.keepOwnerBetweenTwo(
            in: app, through: app, scope: .singleton, closed: closed, child: { _ in app.child() }
        ) { child in
            await child.register(AsyncOwner.self, scope: .singleton) { _ in AsyncOwner(app.child()) }
            try await Self.keepTornDownAsync("grandchild's", in: child.resolve(AsyncOwner.self).child, closed: closed)
        }
        try await app.reset(.singleton)
        try await app.close()
        #expect(closed.values == ["late", "grandchild's", "early"])
    }
}
