import Injector
import Testing

/// Defects in the release of kept values in their turn (26885b1), found by review 7.
@Suite struct Review7RegressionTests {
    /// DESIGN.md principle 11 (reverse creation order); `PendingTeardown.runAll`: "Each record
    /// is let go once its teardown has run". The actor face's close of a request whose kept
    /// values meet an asynchronous teardown runs `kept.runTeardowns()` and then
    /// `runAll(deferred)`, `deferred` a `guard let` binding: passed to the `consuming`
    /// parameter, it is copied, and the binding holds every deferred record until `runAll`
    /// returns (its pops work on a copy of the buffer). So the teardown-less owner, made
    /// between "early" and the child's singleton, is released only after "early" is torn
    /// down: the child's singleton, made after "early", is torn down after it.
    @Test
    func anAsyncTeardownInARequestReleasesATeardownlessOwnerInItsTurn() async throws {
        let app = AsyncDependencyInjector()
        let closed = Collected<String>()
        await app.register(Service.self, name: "early", scope: .scoped) { _ in Service(label: "early") }
            .teardown { (service: Service) in closed.append(service.label) }
        await app.register(ChildOwner.self, scope: .scoped) { _ in ChildOwner(app.synchronous.child()) }
        await app.register(Service.self, name: "late", scope: .scoped) { _ in Service(label: "late") }
            .teardown { (service: Service) async in closed.append(service.label) }
        let request = app.openScope()
        _ = try await request.resolve(Service.self, name: "early")
        do {
            let owner = try await request.resolve(ChildOwner.self)
            owner.child.register(Service.self, scope: .singleton) { _ in Service(label: "child's") }
                .teardown { closed.append($0.label) }
            _ = try owner.child.resolve(Service.self)
        }
        _ = try await request.resolve(Service.self, name: "late")
        try await request.close()
        try await app.close()
        #expect(closed.values == ["late", "child's", "early"])
    }

    /// DESIGN.md principle 11: "the container closes what it created in reverse creation order
    /// — when its scope ends, on reset or replacement". 26885b1 releases each value of a close
    /// in its turn (a record of its release alone for a teardown-less value), but a reset of a
    /// scope does not: `dropValues(ofScope:)` keeps only `dropped.compactMap(\.teardown)` and
    /// releases the dropped entries at the end of each level's iteration, before any teardown
    /// runs. Hunt 6's case at a reset: the teardown-less owner is released first, so the
    /// child's singleton, made before "late", is torn down before it.
    @Test(arguments: Face.allCases)
    func aChildHeldByASingletonIsTornDownInReverseCreationOrderOnAReset(face: Face) async throws {
        let closed = Collected<String>()
        switch face.makeInjector().base {
        case .sync(let app):
            app.register(ChildOwner.self, scope: .singleton) { _ in ChildOwner(app.child()) }
            app.register(Service.self, name: "late", scope: .singleton) { _ in Service(label: "late") }
                .teardown { closed.append($0.label) }
            do {
                let owner = try app.resolve(ChildOwner.self)
                owner.child.register(Service.self, scope: .singleton) { _ in Service(label: "child's") }
                    .teardown { closed.append($0.label) }
                _ = try owner.child.resolve(Service.self)
            }
            _ = try app.resolve(Service.self, name: "late")
            try app.reset(.singleton)
        case .async(let app):
            await app.register(ChildOwner.self, scope: .singleton) { _ in ChildOwner(app.synchronous.child()) }
            await app.register(Service.self, name: "late", scope: .singleton) { _ in Service(label: "late") }
                .teardown { (service: Service) async in closed.append(service.label) }
            do {
                let owner = try await app.resolve(ChildOwner.self)
                owner.child.register(Service.self, scope: .singleton) { _ in Service(label: "child's") }
                    .teardown { closed.append($0.label) }
                _ = try owner.child.resolve(Service.self)
            }
            _ = try await app.resolve(Service.self, name: "late")
            try await app.reset(.singleton)
        }
        #expect(closed.values == ["late", "child's"])
    }
}
