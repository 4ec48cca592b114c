import Foundation
import TestSupport
import Testing

@testable import Injector

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

    /// An argument that is not `Hashable`.
    struct Options: Sendable {
        let verbose: Bool
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

    /// An argument that counts its releases.
    final class UserID: Hashable, Sendable {
        let id: Int
        let released: Counter
        init(_ id: Int, released: Counter) {
            self.id = id
            self.released = released
        }
        deinit { released.increment() }
        static func == (lhs: UserID, rhs: UserID) -> Bool { lhs.id == rhs.id }
        func hash(into hasher: inout Hasher) { hasher.combine(id) }
    }

    /// A weak cache forgets the tuples whose values are gone, with their arguments: a cache
    /// keyed by request or user IDs does not grow for good. (Catches: every tuple ever seen was
    /// kept, 1,000 of 1,000 arguments here.)
    @Test(arguments: Face.allCases)
    func aWeakCacheForgetsTheTuplesWhoseValuesAreGone(face: Face) async throws {
        let app = face.makeInjector()
        switch app.base {
        case .sync(let injector):
            injector.register(Session.self, caching: .weak) { (_, user: UserID) in
                Session(user: user.id, region: "eu", number: 0)
            }
        case .async(let injector):
            await injector.register(Session.self, caching: .weak) { (_, user: UserID) in
                Session(user: user.id, region: "eu", number: 0)
            }
        }
        let released = Counter()
        for id in 0..<1_000 {
            #expect(try await app.resolve(Session.self, arguments: UserID(id, released: released)).user == id)
        }
        // Forgotten in batches, once the entries double: a few of the latest may still be kept.
        #expect(released.value >= 1_000 - 64)
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

    /// The arguments key the kept value, so a cached factory needs them `Hashable`: the one
    /// `register` cannot require it at compile time (without `caching:` it takes any argument),
    /// so the resolve says so, and nothing is made.
    @Test(arguments: Face.allCases)
    func aCachedArgumentThatIsNotHashableFailsTheResolveSayingSo(face: Face) async throws {
        let made = Counter()
        let app = face.makeInjector()
        switch app.base {
        case .sync(let injector):
            injector.register(Session.self, caching: .strong) { (_, user: Int, _: Options) in
                Session(user: user, region: "eu", number: made.increment())
            }
        case .async(let injector):
            await injector.register(Session.self, caching: .strong) { (_, user: Int, _: Options) in
                Session(user: user, region: "eu", number: made.increment())
            }
        }
        let error = await injectionError { try await app.resolve(Session.self, arguments: 1, Options(verbose: true)) }
        guard case .factoryFailed(_, _, let underlying) = error else {
            Issue.record("expected factoryFailed, got \(String(describing: error))")
            return
        }
        let options = "InjectorTests.ArgumentCachingTests.Options"
        #expect(
            error?.description.hasSuffix(
                ": an argument's type, \(options), is not Hashable, so the argument cache cannot key a value by it.\n"
                    + "To fix: make \(options) Hashable, or register without `caching:`.") == true)
        #expect(underlying is UnhashableArgument)
        #expect(made.value == 0)
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

    /// The creator of a tuple's value tears down what the bound let go before it returns the
    /// value; a resolve of other tuples meanwhile does not let go of (and tear down) the value
    /// it is handing out. Regression: a race of 4 threads over 6 tuples with a bound of 2 got
    /// 343 of 211,000 values torn down.
    @Test func aBoundDoesNotTearDownAValueItsCreationIsStillHandingOut() throws {
        let tornDown = Collected<Int>()
        let inTeardown = DispatchSemaphore(value: 0)
        let proceed = DispatchSemaphore(value: 0)
        let injector = DependencyInjector()
        let teardown: @Sendable (Session) -> Void = { session in
            // Holds the creator of 2 in its teardown of 1, after it kept 2.
            if session.user == 1 {
                inTeardown.signal()
                proceed.wait()
            }
            tornDown.append(session.user)
        }
        injector.register(Session.self, caching: .strong(limit: 1), teardown: teardown) { (_, user: Int) in
            Session(user: user, region: "eu", number: user)
        }
        _ = try injector.resolve(Session.self, arguments: 1)
        let handedOutTornDown = Collected<Bool>()
        let done = DispatchSemaphore(value: 0)
        Thread {
            if (try? injector.resolve(Session.self, arguments: 2)) != nil {
                handedOutTornDown.append(tornDown.values.contains(2))
            }
            done.signal()
        }.start()
        inTeardown.wait()
        _ = try injector.resolve(Session.self, arguments: 3)  // a bound of 1: 2 would go
        proceed.signal()
        done.wait()
        #expect(handedOutTornDown.values == [false])
        // Once 2 is handed out, the bound holds again: 2 is the most recently used, 3 goes.
        #expect(tornDown.values == [1, 3])
        _ = try injector.resolve(Session.self, arguments: 4)
        #expect(tornDown.values == [1, 3, 2])
    }

    final class TenantClient: Sendable {
        let tenant: Int
        init(tenant: Int) { self.tenant = tenant }
    }

    /// `.strong(limit:)` keeps at most that many once its creations end. A value kept while
    /// another tuple's creation was still handing its value out (awaiting the teardown of the
    /// value the bound let go) passed that one over; nothing looked again until the next miss,
    /// so a cache whose later resolves all hit kept both under a limit of one (found by a hunt).
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)  // `.timeLimit` takes a `Duration`
    @Test(.timeLimit(.minutes(1)))
    func aBoundedCacheKeepsNoMoreThanItsLimitOnceItsCreationsEnd() async throws {
        let made = Counter()
        let evicting = AsyncGate()
        let evicted = AsyncGate()
        let server = AsyncDependencyInjector()
        await server.register(
            TenantClient.self, caching: .strong(limit: 1),
            teardown: { client in
                guard client.tenant == 1 else { return }
                evicting.open()
                await evicted.wait()  // a disconnect that takes a moment
            }
        ) { (_, tenant: Int) in
            made.increment()
            return TenantClient(tenant: tenant)
        }
        _ = try await server.resolve(TenantClient.self, arguments: 1)
        // Tenant 2 is kept, letting go of tenant 1, whose teardown its resolve awaits.
        let second = Task { try await server.resolve(TenantClient.self, arguments: 2) }
        await evicting.wait()
        _ = try await server.resolve(TenantClient.self, arguments: 3)  // kept meanwhile
        evicted.open()
        _ = try await second.value
        #expect(made.value == 3)

        // A limit of one: of tenants 2 and 3, one at most is kept, so one is made again.
        _ = try await server.resolve(TenantClient.self, arguments: 2)
        _ = try await server.resolve(TenantClient.self, arguments: 3)
        #expect(made.value > 3, "the cache kept tenants 2 and 3 under a limit of 1")
        try await server.close()
    }

    /// The synchronous face, as above: one thread keeps tenant 2, letting go of tenant 1, whose
    /// teardown it runs before its resolve returns; another keeps tenant 3 meanwhile.
    @Test func aBoundedCacheKeepsNoMoreThanItsLimitOnceItsThreadsEnd() async throws {
        let made = Counter()
        let evicting = DispatchSemaphore(value: 0)
        let evicted = DispatchSemaphore(value: 0)
        let app = DependencyInjector()
        app.register(
            TenantClient.self, caching: .strong(limit: 1),
            teardown: { client in
                guard client.tenant == 1 else { return }
                evicting.signal()
                _ = evicted.wait(timeout: .now() + .seconds(10))  // a disconnect that takes a moment
            }
        ) { (_, tenant: Int) in
            made.increment()
            return TenantClient(tenant: tenant)
        }
        _ = try app.resolve(TenantClient.self, arguments: 1)
        // On threads of the test's own: the teardown blocks its thread until tenant 3 is kept.
        await onOwnThread {
            runOnThreads(2) { index in
                if index == 0 {
                    _ = try? app.resolve(TenantClient.self, arguments: 2)
                } else {
                    _ = evicting.wait(timeout: .now() + .seconds(10))
                    _ = try? app.resolve(TenantClient.self, arguments: 3)
                    evicted.signal()
                }
            }
        }
        #expect(made.value == 3)

        _ = try app.resolve(TenantClient.self, arguments: 2)
        _ = try app.resolve(TenantClient.self, arguments: 3)
        #expect(made.value > 3, "the cache kept tenants 2 and 3 under a limit of 1")
        try app.close()
    }

    /// After `close()`, a thread that waited for a tuple's creation throws `closed` without
    /// running the factory. Regression: it found the tuple gone and made it again.
    @Test func aThreadThatWaitedForACreationAcrossCloseThrowsClosedAndMakesNothing() throws {
        let made = Counter()
        let started = DispatchSemaphore(value: 0)
        let proceed = DispatchSemaphore(value: 0)
        let injector = DependencyInjector()
        injector.register(Session.self, caching: .strong) { (_, user: Int) in
            let number = made.increment()
            if number == 1 {  // the first run is held until the injector is closed
                started.signal()
                proceed.wait()
            }
            return Session(user: user, region: "eu", number: number)
        }
        let errors = Collected<InjectionError?>()
        let done = DispatchGroup()
        let resolve: @Sendable () -> Void = {
            errors.append(resolveError { try injector.resolve(Session.self, arguments: 7) })
            done.leave()
        }
        try twoThreadsAskingForTupleSeven(
            injector, started: started, done: done, until: { !errors.values.isEmpty }, resolve)
        try injector.close()
        proceed.signal()
        done.wait()
        #expect(made.value == 1)
        #expect(errors.values.count == 2)
        for error in errors.values {
            #expect(error?.description == Self.closedMessage)
        }
        #expect(resolveError { try injector.resolve(Session.self, arguments: 8) }?.description == Self.closedMessage)
        #expect(made.value == 1)
    }

    /// A value that a cached factory makes while its registration is replaced is its resolve's
    /// alone: the new registration's cache never hands it out, and the injector's `close()`
    /// tears it down, once (as a singleton's made across a re-registration). Regression: it was
    /// kept by a cache nobody closed, and never torn down. On both faces.
    @Test(arguments: Face.allCases)
    func aValueMadeWhileItsRegistrationIsReplacedIsTornDownByClose(face: Face) async throws {
        let closed = Collected<Int>()
        let started = AsyncGate()
        let release = AsyncGate()
        let app = face.makeInjector()
        let register: @Sendable (Int) async -> Void = { number in
            switch app.base {
            case .sync(let injector):
                injector.register(Session.self, caching: .strong, teardown: { closed.append($0.number) }) {
                    (_, user: Int) in
                    if number == 1 {
                        started.open()
                        release.waitBlocking()
                    }
                    return Session(user: user, region: "eu", number: number)
                }
            case .async(let injector):
                await injector.register(Session.self, caching: .strong, teardown: { closed.append($0.number) }) {
                    (_, user: Int) in
                    if number == 1 {
                        started.open()
                        await release.wait()
                    }
                    return Session(user: user, region: "eu", number: number)
                }
            }
        }
        await register(1)
        // The sync face's factory blocks its thread: one of the test's own.
        let first: @Sendable () async -> Int? = {
            switch app.base {
            case .sync(let injector): await onOwnThread { try? injector.resolve(Session.self, arguments: 7).number }
            case .async(let injector): try? await injector.resolve(Session.self, arguments: 7).number
            }
        }
        async let made = first()
        await started.wait()
        await register(2)
        release.open()
        #expect(await made == 1)
        #expect(try await app.resolve(Session.self, arguments: 7).number == 2)  // the new registration's
        #expect(closed.values.isEmpty)
        try await app.close()
        #expect(closed.values.sorted() == [1, 2])
    }

    /// The actor face: resolves that awaited a tuple's creation across `close()` throw `closed`,
    /// and so does every later resolve, with the factory run once.
    @Test func resolvesThatAwaitedACreationAcrossCloseThrowClosedAndMakeNothingMore() async throws {
        let made = Counter()
        let gate = AsyncGate()
        let injector = await actorFaceCachingSessions(counting: made, heldBy: gate)
        let resolves = (0..<2).map { _ in
            Task { await injectionError { try await injector.resolve(Session.self, arguments: 7) } }
        }
        while !injector.core.hasWaiters(for: [7], of: Session.self) { await Task.yield() }
        try await injector.close()
        gate.open()
        for resolve in resolves {
            #expect(await resolve.value?.description == Self.closedMessage)
        }
        let later = await injectionError { try await injector.resolve(Session.self, arguments: 8) }
        #expect(later?.description == Self.closedMessage)
        #expect(made.value == 1)
    }

    /// One per opened scope.
    final class Transaction: Sendable {}

    /// A transient that resolves the session of user 1.
    final class Checkout: Sendable {
        let session: Session
        init(session: Session) { self.session = session }
    }

    /// A cached value that asks for a scoped one would keep it past its scope: a captive
    /// dependency, reported by the resolve (in an opened scope) and by `verify()` when a
    /// factory it runs resolves the cached value. Regression: the resolve threw
    /// `outsideScope` inside an opened scope, and `verify()` passed.
    @Test(arguments: Face.allCases)
    func aCachedValueThatAsksForAScopedOneIsACaptiveDependency(face: Face) async throws {
        let app = face.makeInjector()
        switch app.base {
        case .sync(let injector):
            injector.register(Transaction.self, scope: .scoped) { _ in Transaction() }
            injector.register(Session.self, caching: .strong(limit: 2)) { (r, user: Int) in
                _ = try r.resolve(Transaction.self)
                return Session(user: user, region: "eu", number: user)
            }
            injector.register(Checkout.self) { r in try Checkout(session: r.resolve(Session.self, arguments: 1)) }
        case .async(let injector):
            await injector.register(Transaction.self, scope: .scoped) { _ in Transaction() }
            await injector.register(Session.self, caching: .strong(limit: 2)) { (r, user: Int) in
                _ = try await r.resolve(Transaction.self)
                return Session(user: user, region: "eu", number: user)
            }
            await injector.register(Checkout.self) { r in
                try await Checkout(session: r.resolve(Session.self, arguments: 1))
            }
        }
        let request = app.openScope()
        let error = await injectionError { try await request.resolve(Session.self, arguments: 1) }
        #expect(error?.description == Self.captiveMessage(path: "Session → Transaction"))

        let failures = await app.verificationError()?.failures ?? []
        #expect(failures.map(\.description) == [Self.captiveMessage(path: "Checkout → Session → Transaction")])
    }

    private static func captiveMessage(path: String) -> String {
        let module = "InjectorTests.ArgumentCachingTests."
        let names = path.split(separator: " → ").map { module + $0 }.joined(separator: " → ")
        return """
            Injector refused to give \(module)Transaction (scoped: one value per opened scope) to \(module)Session \
            (caching: .strong(limit: 2)): \(module)Session would keep it after its scope ends (a captive dependency).
            Resolution path: \(names)
            To fix: register \(module)Session without `caching:` (a new value on each resolve), or let it ask for \
            \(module)Transaction when it needs one (in the method that needs it, from the request's injector: \
            the one withScope passes, `current` inside it; a handle it was given when built resolves from the app), \
            or give \(module)Transaction a lifetime as long as \(module)Session's.
            """
    }

    private static let closedMessage = """
        Injector could not resolve InjectorTests.ArgumentCachingTests.Session: the injector that would keep it \
        has been closed, and builds and keeps nothing more.
        To fix: resolve it before calling close(), or from an injector that is still open (open a new scope for new work).
        """

    /// An observer is told `created` by the resolve that made a tuple's value and `cached` by
    /// one that waited for it, on both faces. (Catches: each guessed beforehand, from whether a
    /// value was kept, so the one that waited was told `created` too: two for one run.)
    @Test func anObserverIsToldCreatedOnlyByTheResolveThatMadeATuplesValue() async throws {
        let made = Counter()
        let started = DispatchSemaphore(value: 0)
        let proceed = DispatchSemaphore(value: 0)
        let injector = DependencyInjector()
        injector.register(Session.self, caching: .strong) { (_, user: Int) in
            made.increment()
            started.signal()
            proceed.wait()
            return Session(user: user, region: "eu", number: 1)
        }
        let created = Collected<Bool>()
        injector.observe { created.append(!$0.isCacheHit && $0.error == nil) }
        let done = DispatchGroup()
        let resolve: @Sendable () -> Void = {
            _ = try? injector.resolve(Session.self, arguments: 7)
            done.leave()
        }
        try twoThreadsAskingForTupleSeven(injector, started: started, done: done, resolve)
        proceed.signal()
        done.wait()
        #expect(made.value == 1)
        #expect(created.values.count == 2)
        #expect(created.values.filter { $0 }.count == 1)
    }

    @Test func anActorFaceObserverIsToldCreatedOnlyByTheResolveThatMadeATuplesValue() async throws {
        let made = Counter()
        let gate = AsyncGate()
        let injector = await actorFaceCachingSessions(counting: made, heldBy: gate)
        let created = Collected<Bool>()
        await injector.observe { created.append(!$0.isCacheHit && $0.error == nil) }
        let resolves = (0..<2).map { _ in
            Task { try await injector.resolve(Session.self, arguments: 7) }
        }
        while !injector.core.hasWaiters(for: [7], of: Session.self) { await Task.yield() }
        gate.open()
        for resolve in resolves { _ = try await resolve.value }
        #expect(made.value == 1)
        #expect(created.values.count == 2)
        #expect(created.values.filter { $0 }.count == 1)
    }

    /// An actor face whose `Session`s are cached by user, each creation counted in `made` and
    /// held until `gate` opens.
    private func actorFaceCachingSessions(counting made: Counter, heldBy gate: AsyncGate) async
        -> AsyncDependencyInjector
    {
        let injector = AsyncDependencyInjector()
        await injector.register(Session.self, caching: .strong) { (_, user: Int) in
            made.increment()
            await gate.wait()
            return Session(user: user, region: "eu", number: 1)
        }
        return injector
    }

    /// Runs `resolve` (of `Session` for the argument 7; it leaves `done`) on two threads: the
    /// first makes the value, its factory signalling `started`; returns once the second waits
    /// for it, or once `gaveUp()` (a resolve ended).
    private func twoThreadsAskingForTupleSeven(
        _ injector: DependencyInjector,
        started: DispatchSemaphore,
        done: DispatchGroup,
        until gaveUp: () -> Bool = { false },
        _ resolve: @escaping @Sendable () -> Void
    ) throws {
        done.enter()
        Thread(block: resolve).start()
        started.wait()  // the first makes the value
        done.enter()
        Thread(block: resolve).start()
        while !injector.hasWaiters(for: [7], of: Session.self), !gaveUp() { sched_yield() }  // the second waits for it
    }
}

/// The `InjectionError` that `body` throws, or `nil`.
private func resolveError<T>(_ body: () throws -> T) -> InjectionError? {
    do {
        _ = try body()
        return nil
    } catch {
        return error as? InjectionError
    }
}

extension DependencyInjector {
    /// Whether a resolve besides its creator waits for the creation of the value that this
    /// injector keeps for `arguments` of the registration of `type` (tests close it then): a
    /// thread, or a task whose wait the wait graph has admitted.
    func hasWaiters<T>(for arguments: [AnyHashable], of type: T.Type) -> Bool {
        guard
            let claim = registry.withLock({ $0.kept.creation(of: ArgumentTuple(arguments), for: DependencyKey(type)) })
        else {
            return false
        }
        return claim.isAwaited || (claim.awaited?.waiterCount ?? 0) > 0
    }
}

/// Values cached by argument on the actor face, made in the task that first asks for their
/// tuple: two tasks whose cached values need each other get a cycle, never a hang, and a
/// task waiting for a tuple whose creating task was cancelled makes the value itself.
extension ArgumentCachingTests {
    final class Invoice: Sendable {}
    final class Ledger: Sendable {}

    /// An injector whose cached `Invoice` and `Ledger` of an id need each other. Each factory
    /// waits until both have started, so each task holds its own tuple's creation when it asks
    /// for the other's.
    private func cachedPairNeedingEachOther() async -> AsyncDependencyInjector {
        let injector = AsyncDependencyInjector()
        let started = Counter()
        let bothStarted = AsyncGate()
        let meet: @Sendable () async -> Void = {
            if started.increment() == 2 { bothStarted.open() }
            await bothStarted.wait()
        }
        await injector.register(Invoice.self, caching: .strong) { (r, id: Int) in
            await meet()
            _ = try await r.resolve(Ledger.self, arguments: id)
            return Invoice()
        }
        await injector.register(Ledger.self, caching: .strong) { (r, id: Int) in
            await meet()
            _ = try await r.resolve(Invoice.self, arguments: id)
            return Ledger()
        }
        return injector
    }

    @Test(.timeLimit(.minutes(1)))
    func twoTasksWhoseCachedValuesNeedEachOtherGetACycleNotAHang() async throws {
        let injector = await cachedPairNeedingEachOther()
        let errors = await results(
            within: 30,
            of: [
                { @Sendable in await injectionError { try await injector.resolve(Invoice.self, arguments: 1) } },
                { @Sendable in await injectionError { try await injector.resolve(Ledger.self, arguments: 1) } },
            ])
        // The task that closes the cycle by waiting gets it; the other, whose factory fails with
        // that error, fails too. Neither waits forever.
        let cycles = errors.compactMap(cycleNames)
        #expect(cycles.count == 2)
        for names in cycles { #expect(names.count == 3 && names.first == names.last, "\(names)") }
    }

    final class Audit: Sendable {}
    final class Billing: Sendable {}

    /// The same cycle between cached values that two singletons' creations ask for: each cached
    /// value is made inside a creation, and known to the wait graph by that creation's number.
    /// Regression: the two tasks waited for each other forever.
    @Test(.timeLimit(.minutes(1)))
    func cachedValuesThatNeedEachOtherInsideTwoCreationsGetACycleNotAHang() async throws {
        let injector = await cachedPairNeedingEachOther()
        await injector.register(Audit.self, scope: .singleton) { r in
            _ = try await r.resolve(Invoice.self, arguments: 1)
            return Audit()
        }
        await injector.register(Billing.self, scope: .singleton) { r in
            _ = try await r.resolve(Ledger.self, arguments: 1)
            return Billing()
        }
        let errors = await results(
            within: 30,
            of: [
                { @Sendable in await injectionError { try await injector.resolve(Audit.self) } },
                { @Sendable in await injectionError { try await injector.resolve(Billing.self) } },
            ])
        let cycles = errors.compactMap(cycleNames)
        #expect(cycles.count == 2)
        for names in cycles {
            // From the singleton, through the two cached values, back: no key named twice in a row.
            #expect(names.count == 4 && names[1] == names[3], "\(names)")
        }
    }

    /// A cycle that runs through a cached value made inside another cached value's run, waited
    /// for before the cycle closes: task 1 makes Invoice(1), which makes Ledger(1), which asks
    /// for Audit(1); task 2 makes Audit(1), which waits for Ledger(1) first. Regression: the
    /// wait for Ledger(1), made under Invoice's number, was not seen as a wait for task 1's run.
    @Test(.timeLimit(.minutes(1)))
    func aCycleThroughACachedValueMadeInsideAnotherIsFound() async throws {
        let injector = AsyncDependencyInjector()
        let ledgerStarted = AsyncGate()
        let auditStarted = AsyncGate()
        await injector.register(Invoice.self, caching: .strong) { (r, id: Int) in
            _ = try await r.resolve(Ledger.self, arguments: id)
            return Invoice()
        }
        await injector.register(Ledger.self, caching: .strong) { (r, id: Int) in
            ledgerStarted.open()
            await auditStarted.wait()
            // Task 2's wait for this value is admitted before this one asks for Audit(1).
            while !injector.core.hasWaiters(for: [id], of: Ledger.self) { await Task.yield() }
            _ = try await r.resolve(Audit.self, arguments: id)
            return Ledger()
        }
        await injector.register(Audit.self, caching: .strong) { (r, id: Int) in
            auditStarted.open()
            _ = try await r.resolve(Ledger.self, arguments: id)
            return Audit()
        }
        let errors = await results(
            within: 30,
            of: [
                { @Sendable in await injectionError { try await injector.resolve(Invoice.self, arguments: 1) } },
                { @Sendable in
                    await ledgerStarted.wait()
                    return await injectionError { try await injector.resolve(Audit.self, arguments: 1) }
                },
            ])
        #expect(errors.compactMap(cycleNames).count == 2, "\(errors)")
    }

    @Test(.timeLimit(.minutes(1)))
    func aTaskWaitingForATupleWhoseCreatorIsCancelledMakesTheValueItself() async throws {
        let injector = AsyncDependencyInjector()
        let made = Counter()
        let started = AsyncGate()
        let release = AsyncGate()
        await injector.register(Invoice.self, caching: .strong) { (_, _: Int) in
            if made.increment() == 1 {
                started.open()
                await release.wait()
                try Task.checkCancellation()
            }
            return Invoice()
        }
        let creator = Task { try await injector.resolve(Invoice.self, arguments: 1) }
        await started.wait()
        async let waiter = injector.resolve(Invoice.self, arguments: 1)
        while !injector.core.hasWaiters(for: [1], of: Invoice.self) { await Task.yield() }
        creator.cancel()
        release.open()
        #expect(isCancellation(await failure(of: creator), of: DependencyKey(Invoice.self)))
        let value = try await waiter
        #expect(try await injector.resolve(Invoice.self, arguments: 1) === value)
        #expect(made.value == 2)
    }
}
