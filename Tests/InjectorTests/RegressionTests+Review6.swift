import Injector
import Testing

/// Defects in the close of kept values and the release of children, found by review 6.
@Suite struct Review6RegressionTests {
    /// Notes its release: a value with no teardown whose `deinit` is user code.
    final class Released: Sendable {
        let onDeinit: @Sendable () -> Void
        init(onDeinit: @escaping @Sendable () -> Void) { self.onDeinit = onDeinit }
        deinit { onDeinit() }
    }

    /// DESIGN.md principle 11 (reverse creation order): a value without a teardown that could
    /// set off teardowns is released in its turn, an async teardown's turn too. A child released
    /// without `close()` tears down its own singletons as its close would have; its deinit once
    /// released what it took as soon as the heir had *started* the teardowns: the async one ran
    /// later in the heir's task, so the earlier, teardown-less value was released before the
    /// later value's teardown ran.
    @Test
    func aReleasedChildHoldsItsValuesUntilItsAsyncTeardownsHaveRun() async throws {
        let app = AsyncDependencyInjector()
        let events = Collected<String>()
        do {
            let child = app.child()
            await child.register(Released.self, scope: .singleton) { _ in
                Released { events.append("first released") }
            }
            await child.register(Service.self, scope: .singleton) { _ in Service(label: "second") }
                .teardown { (_: Service) async in events.append("second torn down") }
            _ = try await child.resolve(Released.self)
            _ = try await child.resolve(Service.self)
        }
        try await app.close()  // awaits the teardown task the child's release started
        #expect(events.values == ["second torn down", "first released"])
    }

    /// The same principle at the root's close: `closeKeeping()` hands on its store of kept
    /// values only when it `keepsValuesForOthers` (`kept: keepsValuesForOthers ? kept : nil`),
    /// but the root keeps the values of `register(_:caching:)` there. Their teardowns are
    /// taken out, yet the tuples (and a teardown-less value in them) are released at the end
    /// of `closeKeeping()`, before any teardown runs: a cached value that owns a child sets
    /// off the child's teardowns first. Made in this order: the cached owner, the child's
    /// singleton, the app's "late" singleton; closed: "late", then the child's.
    @Test
    func anArgumentCachedOwnerIsReleasedAfterTheTeardownsOfLaterValues() throws {
        let app = DependencyInjector()
        let closed = Collected<String>()
        app.register(ChildOwner.self, caching: .strong) { (_, _: Int) in ChildOwner(app.child()) }
        app.register(Service.self, name: "late", scope: .singleton) { _ in Service(label: "late") }
            .teardown { closed.append($0.label) }
        do {
            let owner = try app.resolve(ChildOwner.self, arguments: 1)
            owner.child.register(Service.self, scope: .singleton) { _ in Service(label: "child's") }
                .teardown { closed.append($0.label) }
            _ = try owner.child.resolve(Service.self)
        }
        _ = try app.resolve(Service.self, name: "late")
        try app.close()
        #expect(closed.values == ["late", "child's"])
    }

    /// DESIGN.md principle 11 (reverse creation order). 9200f66 held every teardown-less value
    /// of the registry until *all* teardowns had run, which fixed a teardown-less owner made
    /// *before* the values with teardowns (Hunt6's test) but reversed one made *after* them: here an app singleton with a teardown is made first, then a
    /// teardown-less one that owns a plain child, then the child's singleton. Its close runs
    /// "early"'s teardown, then releases the owner, which sets off the child's teardown: the
    /// child's singleton, made last, is torn down last. (Before 9200f66 the owner was released
    /// first, in its turn here.) Kept values are released each in its turn (`runTeardowns()`).
    @Test(arguments: Face.allCases)
    func aTeardownlessOwnerMadeLaterIsReleasedBeforeEarlierTeardowns(face: Face) async throws {
        let closed = Collected<String>()
        switch face.makeInjector().base {
        case .sync(let app):
            app.register(Service.self, name: "early", scope: .singleton) { _ in Service(label: "early") }
                .teardown { closed.append($0.label) }
            app.register(ChildOwner.self, scope: .singleton) { _ in ChildOwner(app.child()) }
            _ = try app.resolve(Service.self, name: "early")
            do {
                let owner = try app.resolve(ChildOwner.self)
                owner.child.register(Service.self, scope: .singleton) { _ in Service(label: "child's") }
                    .teardown { closed.append($0.label) }
                _ = try owner.child.resolve(Service.self)
            }
            try app.close()
        case .async(let app):
            await app.register(Service.self, name: "early", scope: .singleton) { _ in Service(label: "early") }
                .teardown { (service: Service) async in closed.append(service.label) }
            await app.register(ChildOwner.self, scope: .singleton) { _ in ChildOwner(app.synchronous.child()) }
            _ = try await app.resolve(Service.self, name: "early")
            do {
                let owner = try await app.resolve(ChildOwner.self)
                owner.child.register(Service.self, scope: .singleton) { _ in Service(label: "child's") }
                    .teardown { closed.append($0.label) }
                _ = try owner.child.resolve(Service.self)
            }
            try await app.close()
        }
        #expect(closed.values == ["child's", "early"])
    }
}
