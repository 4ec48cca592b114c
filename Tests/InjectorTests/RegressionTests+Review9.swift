import Injector
import Testing

/// Defects in this round's hunt fixes (cd5f3cc, 51c4f00, 01a0a9e), found by review 9.
@Suite struct Review9RegressionTests {
    /// Owns a child of the app and a child of another root, released together.
    final class TwoOwner: Sendable {
        let appChild: AsyncDependencyInjector
        let otherChild: AsyncDependencyInjector

        init(_ appChild: AsyncDependencyInjector, _ otherChild: AsyncDependencyInjector) {
            self.appChild = appChild
            self.otherChild = otherChild
        }
    }

    /// DESIGN.md principle 11 (reverse creation order); cd5f3cc takes what a release sets off
    /// for the app (a released child's async teardown) into the app's running close. The list
    /// taken in was the thread's: a nested run for another injector, set off by the same release
    /// (a child of another root that keeps a value), took the app's in as its own, so that the
    /// app's close returned without it, and the other root's close ran it.
    @Test(arguments: Review8RegressionTests.Ending.allCases)
    func anotherInjectorsRunSetOffByTheSameReleaseLeavesTheAppsTeardowns(ending: Review8RegressionTests.Ending)
        async throws
    {
        let app = AsyncDependencyInjector()
        let other = AsyncDependencyInjector()
        let closed = Collected<String>()
        await app.register(Service.self, name: "early", scope: .singleton) { _ in Service(label: "early") }
            .teardown { (service: Service) in closed.append(service.label) }
        await app.register(TwoOwner.self, scope: .singleton) { _ in
            let otherChild = other.child()
            await otherChild.register(Service.self, scope: .singleton) { _ in Service(label: "other's") }
            _ = try await otherChild.resolve(Service.self)
            return TwoOwner(app.child(), otherChild)
        }
        await app.register(Service.self, name: "late", scope: .singleton) { _ in Service(label: "late") }
            .teardown { (service: Service) in closed.append(service.label) }
        _ = try await app.resolve(Service.self, name: "early")
        try await Review8RegressionTests.keepTornDownAsync(
            "child's", in: try await app.resolve(TwoOwner.self).appChild, closed: closed)
        _ = try await app.resolve(Service.self, name: "late")
        try await ending.end(app, scope: .singleton)
        try await app.close()
        #expect(closed.values == ["late", "child's", "early"])
        try await other.close()
        #expect(closed.values == ["late", "child's", "early"])
    }

    /// Scopes.md: "Only class instances can be held weakly"; 51c4f00 makes a value type
    /// registered `.weak` a transient, and took `AnyObject`, whose values are all objects, for
    /// one: each resolve made a new object.
    @Test func anAnyObjectRegisteredWeakIsShared() throws {
        let injector = DependencyInjector()
        injector.register(AnyObject.self, scope: .weak) { _ in Service(label: "weak") }
        let first = try injector.resolve(AnyObject.self)
        let second = try injector.resolve(AnyObject.self)
        #expect(ObjectIdentifier(first) == ObjectIdentifier(second))
        #expect(injector.registrations.first { $0.key == DependencyKey(AnyObject.self) }?.scope == .weak)
    }

    /// MainActorAndApps.md; 01a0a9e's first version made the actor face's `verify()` report a
    /// synchronous factory that needs a main-actor value: falsely for one that only a
    /// main-actor factory resolves (it runs on the main actor then), and for a main-actor
    /// singleton registered by initializer (made first, as a singleton, it was only checked).
    @Test func aSynchronousFactoryThatMainActorCodeResolvesPassesTheActorFacesVerify() async throws {
        let services = AsyncDependencyInjector()
        let injector = services.synchronous
        injector.register(SettingsStore.self, scope: .singleton) { _ in SettingsStore() }
        injector.mainActor.register(SettingsModel.self) { r in try SettingsModel(store: r.resolve()) }
        injector.register(SettingsPanel.self) { r in try SettingsPanel(model: r.resolve()) }
        injector.mainActor.register(SettingsScreenModel.self) { r in try SettingsScreenModel(panel: r.resolve()) }
        _ = try await services.resolve(SettingsScreenModel.self)  // works in the app
        try await services.verify()

        let byInitializer = AsyncDependencyInjector()
        byInitializer.synchronous.register(SettingsStore.self, scope: .singleton) { _ in SettingsStore() }
        byInitializer.synchronous.mainActor.register(
            SettingsModel.self, scope: .singleton, initializer: SettingsModel.init)
        byInitializer.synchronous.register(SettingsPanel.self) { r in try SettingsPanel(model: r.resolve()) }
        try await byInitializer.verify()
    }
}

/// A main-actor screen model that a main-actor factory builds from a synchronous one's panel.
@MainActor final class SettingsScreenModel {
    let panel: SettingsPanel

    init(panel: SettingsPanel) {
        self.panel = panel
    }
}
