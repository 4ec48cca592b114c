import TestSupport
import Testing

@testable import Injector

/// Where values cached by argument (`register(_:caching:…)`) meet the rest of the library:
/// `current`, `reset`, decorators, a failed `install`, `registrations`, observation, `close()`
/// and a test's recorded failures. Each test is a regression: each failed before.
@Suite struct ArgumentCachingSeamTests {
    final class Session: Sendable {
        let user: Int
        let tag: String
        init(user: Int, tag: String = "plain") {
            self.user = user
            self.tag = tag
        }
    }

    /// What a factory builds that reads its region through a wrapper, from `current`.
    final class RegionalClient: @unchecked Sendable {
        // `@unchecked Sendable`: the wrapper is read once, by the test.
        @Inject(name: "region") var region: String
    }

    struct TeardownFailed: Error {}

    /// An app that caches a `Session` per user.
    private func app(_ face: Face, closed: Collected<Int> = Collected()) async -> FaceInjector {
        let app = face.makeInjector()
        switch app.base {
        case .sync(let injector):
            injector.register(Session.self, caching: .strong, teardown: { closed.append($0.user) }) {
                (_, user: Int) in Session(user: user)
            }
        case .async(let injector):
            await injector.register(Session.self, caching: .strong, teardown: { closed.append($0.user) }) {
                (_, user: Int) in Session(user: user)
            }
        }
        return app
    }

    @Test(arguments: Face.allCases)
    func aValueIsMadeWithItsKeeperAsCurrentSoNoChildsOverrideReachesIt(face: Face) async throws {
        let app = face.makeInjector()
        await app.register("production", name: "region")
        switch app.base {
        case .sync(let injector):
            injector.register(RegionalClient.self, caching: .strong) { (_, _: Int) in RegionalClient() }
        case .async(let injector):
            await injector.register(RegionalClient.self, caching: .strong) { (_, _: Int) in RegionalClient() }
        }
        let child = app.child()
        await child.register("child", name: "region")
        #expect(try await child.resolve(RegionalClient.self, arguments: 1).region == "production")
        #expect(try await app.resolve(RegionalClient.self, arguments: 1).region == "production")
    }

    @Test(arguments: Face.allCases)
    func aResetWithNothingCachedYetDropsNothing(face: Face) async throws {
        let app = await app(face)
        try await app.reset(Session.self)  // nothing made yet
        let first = try await app.resolve(Session.self, arguments: 1)
        try await app.withOverrides({ _ in }) {
            try await face.currentInjector.reset(Session.self)  // the test scope has made none yet
        }
        #expect(try await app.resolve(Session.self, arguments: 1) === first)
    }

    @Test(arguments: Face.allCases)
    func aDecoratorAddedLaterLetsGoOfTheValuesAlreadyCached(face: Face) async throws {
        let closed = Collected<Int>()
        let app = await app(face, closed: closed)
        _ = try await app.resolve(Session.self, arguments: 1)
        switch app.base {
        case .sync(let injector):
            injector.decorate(Session.self) { _, inner in Session(user: inner.user, tag: "decorated") }
        case .async(let injector):
            await injector.decorate(Session.self) { _, inner in Session(user: inner.user, tag: "decorated") }
            await injector.teardownsFinished()  // an asynchronous teardown runs in the injector's task
        }
        #expect(closed.values == [1])
        #expect(try await app.resolve(Session.self, arguments: 1).tag == "decorated")
    }

    /// Decorates `Session`, makes a decorated value, then fails.
    struct DecoratingModule: DependencyModule {
        func register(in injector: DependencyInjector) throws(InjectionError) {
            injector.decorate(Session.self) { _, inner in Session(user: inner.user, tag: "decorated") }
            _ = try injector.resolve(Session.self, arguments: 1)
            throw .unknownScope(.named("abandoned"))
        }
    }

    @Test func aFailedInstallLetsGoOfTheValuesCachedWithTheDecoratorsItTakesBack() async throws {
        let app = DependencyInjector()
        app.register(Session.self, caching: .strong) { (_, user: Int) in Session(user: user) }
        #expect(throws: InjectionError.self) { try app.install(DecoratingModule()) }
        #expect(try app.resolve(Session.self, arguments: 1).tag == "plain")
    }

    @Test func registrationsListTheDecoratorsOfTheInjectorThatMakesTheCachedValue() throws {
        let app = DependencyInjector()
        app.register(Session.self, caching: .strong) { (_, user: Int) in Session(user: user) }
        let child = app.child()
        child.decorate(Session.self) { _, inner in Session(user: inner.user, tag: "decorated") }
        #expect(try child.resolve(Session.self, arguments: 1).tag == "plain")  // the app makes it
        let info = try #require(child.registrations.first { $0.key == DependencyKey(Session.self) })
        #expect(info.decorators.isEmpty)
    }

    @Test(arguments: Face.allCases)
    func aValueFoundInTheCacheIsObservedAsCached(face: Face) async throws {
        let app = await app(face)
        let outcomes = Collected<String>()
        await app.observe { outcomes.append($0.isCacheHit ? "cached" : "created") }
        _ = try await app.resolve(Session.self, arguments: 1)
        _ = try await app.resolve(Session.self, arguments: 1)
        _ = try await app.resolve(Session.self, arguments: 2)
        #expect(outcomes.values == ["created", "cached", "created"])
    }

    @Test func aWeaklyCachedValueMadeAcrossCloseIsNotTornDown() {
        let app = DependencyInjector()
        let closed = Collected<Int>()
        app.register(Session.self, caching: .weak, teardown: { closed.append($0.user) }) { (_, user: Int) in
            try? app.close()  // closes while the value is being made
            return Session(user: user)
        }
        #expect(throws: InjectionError.self) { try app.resolve(Session.self, arguments: 1) }
        #expect(closed.values.isEmpty)  // a weakly held value is its holders'
    }

    /// Registers `Session` twice, with a value made in between.
    final class RegisteringTwiceModule: DependencyModule {
        let closed: Collected<Int>
        init(closed: Collected<Int>) { self.closed = closed }

        func register(in injector: DependencyInjector) throws(InjectionError) {
            let closed = closed
            injector.register(Session.self, caching: .strong, teardown: { closed.append(100 + $0.user) }) {
                (_, user: Int) in Session(user: user)
            }
            _ = try injector.resolve(Session.self, arguments: 1)
            injector.register(Session.self, caching: .strong) { (_, user: Int) in Session(user: user) }
        }
    }

    @Test func anInstallationThatReplacesItsOwnCachingRegistrationTearsDownItsValues() throws {
        let closed = Collected<Int>()
        let app = DependencyInjector()
        app.register(Session.self, caching: .strong, teardown: { closed.append($0.user) }) { (_, user: Int) in
            Session(user: user)
        }
        _ = try app.resolve(Session.self, arguments: 0)
        try app.install(RegisteringTwiceModule(closed: closed))
        #expect(closed.values.sorted() == [0, 101])  // the app's, and the module's first
    }

    @Test func aFailedTeardownOfACachedValueInATestIsRecordedAtItsRegistration() throws {
        let app = DependencyInjector()
        let line = #line + 1
        app.register(Session.self, caching: .strong, teardown: { _ in throw TeardownFailed() }) { (_, user: Int) in
            Session(user: user)
        }
        let lines = Collected<Int>()
        try withKnownIssue {
            try app.withOverrides({ _ in }) {
                _ = try DependencyInjector.current.resolve(Session.self, arguments: 1)
            }
        } matching: { issue in
            lines.append(issue.sourceLocation?.line ?? 0)
            return true
        }
        #expect(lines.values == [line])
    }
}
