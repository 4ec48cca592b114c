import Foundation
import Injector
import TestSupport
import Testing

/// `register(_:caching:)`: one value per argument tuple, on both faces; a bound, a weak
/// variant, `reset`; kept by the injector that keeps the registration's singletons.
@Suite struct ArgumentCachingTests {
    final class Session: Sendable {
        let user: Int
        let region: String
        let number: Int
        init(user: Int, region: String, number: Int) {
            self.user = user
            self.region = region
            self.number = number
        }
    }

    /// Registers `Session` for `(user, region)` with `caching`, numbering each one made.
    private func app(_ face: Face, caching: ArgumentCaching, made: Counter) async -> FaceInjector {
        let app = face.makeInjector()
        switch app.base {
        case .sync(let injector):
            injector.register(Session.self, caching: caching) { (_, user: Int, region: String) in
                Session(user: user, region: region, number: made.increment())
            }
        case .async(let injector):
            await injector.register(Session.self, caching: caching) { (_, user: Int, region: String) in
                await Task.yield()
                return Session(user: user, region: region, number: made.increment())
            }
        }
        return app
    }

    @Test(arguments: Face.allCases)
    func oneValuePerArgumentTuple(face: Face) async throws {
        let made = Counter()
        let app = await app(face, caching: .strong, made: made)
        let first = try await app.resolve(Session.self, arguments: 1, "eu")
        #expect(try await app.resolve(Session.self, arguments: 1, "eu") === first)
        #expect(try await app.resolve(Session.self, arguments: 1, "us") !== first)
        #expect(try await app.resolve(Session.self, arguments: 2, "eu") !== first)
        #expect(made.value == 3)
        #expect(try await app.child().resolve(Session.self, arguments: 1, "eu") === first)  // a plain child shares
    }

    @Test(arguments: Face.allCases)
    func aBoundLetsGoOfTheLeastRecentlyUsed(face: Face) async throws {
        let made = Counter()
        let app = await app(face, caching: .strong(limit: 2), made: made)
        let one = try await app.resolve(Session.self, arguments: 1, "eu")
        let two = try await app.resolve(Session.self, arguments: 2, "eu")
        #expect(try await app.resolve(Session.self, arguments: 1, "eu") === one)  // 1 is now the most recent
        _ = try await app.resolve(Session.self, arguments: 3, "eu")  // lets 2 go
        #expect(try await app.resolve(Session.self, arguments: 1, "eu") === one)
        #expect(try await app.resolve(Session.self, arguments: 2, "eu") !== two)
        #expect(made.value == 4)
    }

    @Test(arguments: Face.allCases)
    func aWeakCacheSharesAValueWhileSomethingHoldsIt(face: Face) async throws {
        let made = Counter()
        let app = await app(face, caching: .weak, made: made)
        var held: Session? = try await app.resolve(Session.self, arguments: 1, "eu")
        let number = held?.number
        #expect(try await app.resolve(Session.self, arguments: 1, "eu").number == number)
        held = nil
        #expect(try await app.resolve(Session.self, arguments: 1, "eu").number != number)
        withExtendedLifetime(held) {}
    }

    @Test(arguments: Face.allCases)
    func aResetLetsGoOfEveryValue(face: Face) async throws {
        let made = Counter()
        let app = await app(face, caching: .strong, made: made)
        let first = try await app.resolve(Session.self, arguments: 1, "eu")
        try await app.reset(Session.self)
        #expect(try await app.resolve(Session.self, arguments: 1, "eu") !== first)
        #expect(made.value == 2)
    }

    @Test(arguments: Face.allCases)
    func aTestScopeKeepsValuesOfItsOwn(face: Face) async throws {
        let app = await app(face, caching: .strong, made: Counter())
        let appSession = try await app.resolve(Session.self, arguments: 1, "eu")
        let test = app.testChild()
        let testSession = try await test.resolve(Session.self, arguments: 1, "eu")
        #expect(testSession !== appSession)
        #expect(try await test.resolve(Session.self, arguments: 1, "eu") === testSession)
        #expect(try await app.resolve(Session.self, arguments: 1, "eu") === appSession)
    }

    /// A child's override never reaches the values the app keeps: they are made by the app.
    @Test func aChildsOverrideDoesNotLeakIntoAKeptValue() throws {
        final class Client: Sendable {
            let region: String
            init(region: String) { self.region = region }
        }
        let app = DependencyInjector()
        app.register("production", name: "region")
        app.register(Client.self, caching: .strong) { (r, _: Int) in try Client(region: r.resolve(name: "region")) }
        let child = app.child()
        child.register("test", name: "region")
        #expect(try child.resolve(Client.self, arguments: 1).region == "production")
        #expect(try app.resolve(Client.self, arguments: 1).region == "production")
    }

    @Test func eightThreadsAskingForOneTupleFirstMakeItOnce() {
        let made = Counter()
        let injector = DependencyInjector()
        injector.register(Session.self, caching: .strong) { (_, user: Int) in
            usleep(500)  // widens the window in which the others find it being made
            return Session(user: user, region: "eu", number: made.increment())
        }
        let seen = Collected<Int>()
        runOnThreads(8) { _ in
            if let session = try? injector.resolve(Session.self, arguments: 7) { seen.append(session.number) }
        }
        #expect(seen.values.count == 8)
        #expect(Set(seen.values).count == 1)
        #expect(made.value == 1)
    }

    /// Registers `Session` for `user` with `caching` and a teardown that collects the numbers
    /// of the sessions it closes.
    private func closingApp(_ face: Face, caching: ArgumentCaching, closed: Collected<Int>) async -> FaceInjector {
        let app = face.makeInjector()
        let made = Counter()
        switch app.base {
        case .sync(let injector):
            injector.register(Session.self, caching: caching, teardown: { closed.append($0.number) }) {
                (_, user: Int) in Session(user: user, region: "eu", number: made.increment())
            }
        case .async(let injector):
            await injector.register(Session.self, caching: caching, teardown: { closed.append($0.number) }) {
                (_, user: Int) in Session(user: user, region: "eu", number: made.increment())
            }
        }
        return app
    }

    @Test(arguments: Face.allCases)
    func aValueLetGoPastTheBoundOrByAResetIsTornDownOnce(face: Face) async throws {
        let closed = Collected<Int>()
        let app = await closingApp(face, caching: .strong(limit: 2), closed: closed)
        for user in [1, 2, 3] { _ = try await app.resolve(Session.self, arguments: user) }  // 3 lets 1 go
        #expect(closed.values == [1])

        try await app.reset(Session.self)
        #expect(closed.values.sorted() == [1, 2, 3])
        _ = try await app.resolve(Session.self, arguments: 1)  // made again: number 4
        #expect(closed.values.count == 3)
    }

    @Test(arguments: Face.allCases)
    func closeTearsDownTheKeptValuesLatestFirstAndAReplacementTearsDownItsOwn(face: Face) async throws {
        let closed = Collected<Int>()
        let app = await closingApp(face, caching: .strong, closed: closed)
        for user in [1, 2] { _ = try await app.resolve(Session.self, arguments: user) }
        switch app.base {
        case .sync(let injector):
            injector.register(Session.self, caching: .strong) { (_, user: Int) in
                Session(user: user, region: "us", number: 10 + user)
            }
            #expect(closed.values.sorted() == [1, 2])  // the replaced registration's values
            _ = try injector.resolve(Session.self, arguments: 1)
            try injector.close()
        case .async(let injector):
            await injector.register(Session.self, caching: .strong, teardown: { closed.append($0.number) }) {
                (_, user: Int) in Session(user: user, region: "us", number: 10 + user)
            }
            for user in [1, 2] { _ = try await injector.resolve(Session.self, arguments: user) }
            try await injector.close()
        }
        switch face {
        case .sync: #expect(closed.values.sorted() == [1, 2])  // the new registration has no teardown
        case .async: #expect(closed.values.suffix(2) == [12, 11])  // latest first
        }
    }

    @Test func aWeaklyHeldValueIsNotTornDown() throws {
        let closed = Collected<Int>()
        let injector = DependencyInjector()
        injector.register(Session.self, caching: .weak, teardown: { closed.append($0.number) }) { (_, user: Int) in
            Session(user: user, region: "eu", number: user)
        }
        _ = try injector.resolve(Session.self, arguments: 1)
        try injector.reset(Session.self)
        try injector.close()
        #expect(closed.values.isEmpty)
    }
}
