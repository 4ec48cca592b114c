import Injector
import TestSupport
import Testing

extension Scope {
    static let session = Scope.named("session")
}

final class Cart: Sendable {}

/// Named scopes reset by the application, and singletons reset in tests.
/// A numbered value, to tell which one was torn down.
private final class Ticket: Sendable {
    let id: Int
    init(id: Int) { self.id = id }
}

@Suite struct ResetTests {
    @Test(arguments: Face.allCases)
    func aSessionScopeKeepsItsValueUntilLogoutResetsIt(face: Face) async throws {
        let injector = face.makeInjector()
        await injector.register(Cart.self, scope: .session) { Cart() }

        let first = try await injector.resolve(Cart.self)
        #expect(try await injector.resolve(Cart.self) === first)
        try await injector.reset(.session)
        let afterLogout = try await injector.resolve(Cart.self)
        #expect(afterLogout !== first)
        #expect(try await injector.resolve(Cart.self) === afterLogout)
    }

    /// A reset of a key that forwards to a singleton (`implements`) drops the singleton, which
    /// every key it answers shares. (Catches: it threw `notResettable`, calling the forward a
    /// transient, with advice that would break the forward.)
    @Test func aResetOfAForwardedKeyDropsTheValueItForwardsTo() async throws {
        let injector = DependencyInjector()
        injector.register(Cart.self, scope: .singleton) { _ in Cart() }.implements((any Sendable).self)
        let first = try injector.resolve((any Sendable).self) as? Cart
        try injector.reset((any Sendable).self)
        let second = try injector.resolve(Cart.self)
        #expect(second !== first)
        #expect(try injector.resolve((any Sendable).self) as? Cart === second)
        let server = AsyncDependencyInjector()
        await server.register(Cart.self, scope: .singleton) { _ in Cart() }.implements((any Sendable).self)
        let served = try await server.resolve(Cart.self)
        try await server.reset((any Sendable).self)
        #expect(try await server.resolve(Cart.self) !== served)
    }

    /// A reset of forwards that lead back to each other (a child's forward to its parent's,
    /// which forwards to it) throws the cycle, as a resolve does. (Catches: the reset followed
    /// the forwards until the stack overflowed, found by a review.)
    @Test func aResetOfForwardsThatLeadBackToEachOtherThrowsTheCycle() throws {
        let parent = DependencyInjector()
        parent.register(Cart.self, name: "x", scope: .singleton) { _ in Cart() }.implements(Cart.self, name: "y")
        let child = parent.child()
        child.register(Cart.self, name: "y", scope: .singleton) { _ in Cart() }.implements(Cart.self, name: "x")
        child.unregister(Cart.self, name: "y")  // the child's x forwards to the parent's y, which forwards to x
        #expect(throws: InjectionError.self) { try child.resolve(Cart.self, name: "x") }
        let error = #expect(throws: InjectionError.self) { try child.reset(Cart.self, name: "x") }
        guard case .circularDependency? = error else {
            Issue.record("expected circularDependency, got \(String(describing: error))")
            return
        }
    }

    /// A test scope keeps its own copies of the app's singletons and its scoped values in one
    /// store: a reset of one scope drops that scope's values there, and leaves the others'.
    @Test func aTestScopesResetDropsTheValuesOfThatScopeAlone() throws {
        final class Transaction: Sendable {}
        let app = DependencyInjector()
        app.register(Cart.self, scope: .singleton) { _ in Cart() }
        app.register(Transaction.self, scope: .scoped) { _ in Transaction() }
        let appCart = try app.resolve(Cart.self)
        try app.withOverrides({ _ in }) {
            let test = DependencyInjector.current
            let cart = try test.resolve(Cart.self)
            let transaction = try test.resolve(Transaction.self)
            #expect(cart !== appCart)  // the test scope's own copy

            try test.reset(.singleton)
            #expect(try test.resolve(Transaction.self) === transaction)
            let newCart = try test.resolve(Cart.self)
            #expect(newCart !== cart)

            try test.reset(.scoped)
            #expect(try test.resolve(Cart.self) === newCart)
            #expect(try test.resolve(Transaction.self) !== transaction)
        }
        #expect(try app.resolve(Cart.self) === appCart)
    }

    @Test func aResetWhileOtherThreadsResolveGivesEachAWholeCart() throws {
        let injector = DependencyInjector()
        let made = Counter()
        injector.register(Cart.self, scope: .session) { _ in
            made.increment()
            return Cart()
        }
        let seen = Collected<ObjectIdentifier>()
        runOnThreads(4) { index in
            for _ in 0..<2_000 {
                if index == 0 {
                    try? injector.reset(.session)
                } else if let cart = try? injector.resolve(Cart.self) {
                    seen.append(ObjectIdentifier(cart))
                }
            }
        }
        #expect(seen.values.count == 6_000)
        #expect(made.value >= 1)
        #expect(made.value <= 2_001)  // at most one cart per reset, plus the first
        let settled = try injector.resolve(Cart.self)
        #expect(try injector.resolve(Cart.self) === settled)
    }

    @Test(arguments: Face.allCases)
    func resettingSingletonsInATestScopeRebuildsThemThereOnly(face: Face) async throws {
        let app = face.makeInjector()
        await app.register(Cart.self, scope: .singleton) { Cart() }
        let appCart = try await app.resolve(Cart.self)
        let test = app.childKeepingItsOwnSingletons()

        let before = try await test.resolve(Cart.self)
        try await test.reset(.singleton)
        let after = try await test.resolve(Cart.self)
        #expect(before !== after)
        #expect(before !== appCart)
        #expect(try await app.resolve(Cart.self) === appCart)
    }

    @Test(arguments: Face.allCases)
    func aScopeThatKeepsNothingOrThatNoRegistrationUsesCannotBeReset(face: Face) async {
        let injector = face.makeInjector()
        await injector.register(Cart.self, scope: .session) { Cart() }

        for scope in [Scope.transient, .graph, .named("sesion")] {
            let error = await injector.resetError(scope)
            guard case .unknownScope(let reported) = error else {
                Issue.record("expected unknownScope, got \(String(describing: error))")
                continue
            }
            #expect(reported == scope)
        }
        #expect(
            await injector.resetError(.named("sesion"))?.description == """
                Injector could not reset the scope "sesion": no registration in the injector or its ancestors uses it.
                To fix: check the scope's name, or reset the injector whose registrations use it.
                """)
        #expect(
            await injector.resetError(.graph)?.description == """
                Injector could not reset the scope "graph": it keeps no values to reset (each resolve makes new ones).
                To fix: reset a scope that keeps values: `.singleton`, `.weak`, `.scoped`, or one of `.named(…)`.
                """)
        #expect(await injector.resetError(.session) == nil)
    }

    @Test(arguments: Face.allCases)
    func aResetThroughAPlainChildResetsWhatItsParentSharesWithItButATestScopeStopsThere(face: Face) async throws {
        let app = face.makeInjector()
        await app.register(Cart.self, scope: .session) { Cart() }
        let appCart = try await app.resolve(Cart.self)
        let screen = app.child()
        let test = app.childKeepingItsOwnSingletons()
        let testCart = try await test.resolve(Cart.self)

        try await test.reset(.session)
        #expect(try await test.resolve(Cart.self) !== testCart)
        #expect(try await app.resolve(Cart.self) === appCart)  // a test scope never reaches the app's

        try await screen.reset(.session)  // the screen resolves the app's cart: that one goes
        #expect(try await screen.resolve(Cart.self) !== appCart)
        #expect(try await app.resolve(Cart.self) === screen.resolve(Cart.self))
    }
}

/// `reset(T.self)`: one key's value, where a resolve through the injector would find it.
@Suite struct ResetOneKeyTests {
    final class Flags: Sendable {}

    @Test(arguments: Face.allCases)
    func resettingOneSingletonMakesItAfreshTearsItDownAndLeavesTheOthers(face: Face) async throws {
        let app = face.makeInjector()
        let closed = Collected<String>()
        await app.register(Flags.self, scope: .singleton, tornDown: { _ in closed.append("flags") }) { Flags() }
        await app.register(Cart.self, scope: .singleton) { Cart() }
        let flags = try await app.resolve(Flags.self)
        let cart = try await app.resolve(Cart.self)

        try await app.reset(Flags.self)
        #expect(closed.values == ["flags"])
        let reloaded = try await app.resolve(Flags.self)
        #expect(reloaded !== flags)
        #expect(try await app.resolve(Flags.self) === reloaded)
        #expect(try await app.resolve(Cart.self) === cart)
        try await app.reset(Flags.self)
        try await app.reset(Flags.self)  // nothing kept now: nothing to drop, no error
        #expect(closed.values == ["flags", "flags"])
    }

    @Test(arguments: Face.allCases)
    func aResetThroughAPlainChildReachesTheParentsValueButATestScopeDropsOnlyItsCopy(face: Face) async throws {
        let app = face.makeInjector()
        await app.register(Cart.self, scope: .singleton) { Cart() }
        let appCart = try await app.resolve(Cart.self)
        let test = app.childKeepingItsOwnSingletons()
        let testCart = try await test.resolve(Cart.self)

        try await test.reset(Cart.self)
        #expect(try await test.resolve(Cart.self) !== testCart)
        #expect(try await app.resolve(Cart.self) === appCart)

        try await app.child().reset(Cart.self)
        #expect(try await app.resolve(Cart.self) !== appCart)
    }

    @Test(arguments: Face.allCases)
    func aScopedValueIsResetInItsScopeOnly(face: Face) async throws {
        let app = face.makeInjector()
        await app.register(Cart.self, scope: .scoped) { Cart() }
        let first = app.openScope()
        let second = app.openScope()
        let firstCart = try await first.resolve(Cart.self)
        let secondCart = try await second.resolve(Cart.self)

        try await first.child().reset(Cart.self)
        #expect(try await first.resolve(Cart.self) !== firstCart)
        #expect(try await second.resolve(Cart.self) === secondCart)
    }

    /// Regression: a reset through a scope, or through a child below it with an override of
    /// its own, dropped every value the scope kept for the key, the other registration's too.
    @Test(arguments: Face.allCases)
    func aResetThroughAScopeOrAChildBelowItDropsTheValueItsResolveGetsOnly(face: Face) async throws {
        let closed = Collected<Int>()
        let app = face.makeInjector()
        await app.register(Ticket.self, scope: .scoped, tornDown: { closed.append($0.id) }) { Ticket(id: 1) }
        let request = app.openScope()
        let child = request.child()
        await child.register(Ticket.self, scope: .scoped, tornDown: { closed.append($0.id) }) { Ticket(id: 2) }
        let apps = try await request.resolve(Ticket.self)
        let childs = try await child.resolve(Ticket.self)

        try await child.reset(Ticket.self)
        #expect(closed.values == [2])
        #expect(try await request.resolve(Ticket.self) === apps)
        let newChilds = try await child.resolve(Ticket.self)
        #expect(newChilds !== childs)

        try await request.reset(Ticket.self)
        #expect(closed.values == [2, 1])
        #expect(try await child.resolve(Ticket.self) === newChilds)
        try await request.close()
    }

    /// Regression: the actor face's reset awaited the asynchronous teardowns of its own core
    /// only, while the value's teardown runs in a task of the injector that kept it (the
    /// scope, or the app): it returned before the value was torn down.
    @Test func theActorFacesResetAwaitsTheTeardownWhereverTheValueWasKept() async throws {
        let closed = Collected<Int>()
        let app = AsyncDependencyInjector()
        // Suspends long enough that a reset which does not await it returns first.
        let slowly = { @Sendable (ticket: Ticket) async throws in
            try await Task.sleep(nanoseconds: 50_000_000)
            closed.append(ticket.id)
        }
        await app.register(Ticket.self, scope: .scoped) { _ in Ticket(id: 1) }.teardown(slowly)
        await app.register(Ticket.self, name: "app", scope: .singleton) { _ in Ticket(id: 2) }
            .teardown(slowly)
        let request = app.openScope()
        let child = request.child()

        _ = try await child.resolve(Ticket.self)
        try await child.reset(Ticket.self)  // kept by the scope
        #expect(closed.values == [1])
        _ = try await request.resolve(Ticket.self, name: "app")
        try await request.reset(Ticket.self, name: "app")  // kept by the app
        #expect(closed.values == [1, 2])
        _ = try await child.resolve(Ticket.self)
        try await child.reset(.scoped)
        #expect(closed.values == [1, 2, 1])
        try await request.close()
    }

    @Test(arguments: Face.allCases)
    func aKeyThatIsNotRegisteredOrKeepsNoValueCannotBeReset(face: Face) async {
        let injector = face.makeInjector()
        await injector.register(Cart.self) { Cart() }
        await injector.register(Flags(), as: Flags.self)

        guard case .notRegistered(let key, _, _)? = await injector.resetError(Cart.self, name: "missing") else {
            Issue.record("expected notRegistered")
            return
        }
        #expect(key == DependencyKey(Cart.self, name: "missing"))
        let transient = await injector.resetError(Cart.self)
        #expect(
            transient?.description == """
                Injector could not reset InjectorTests.Cart: its scope, transient, keeps no value (each resolve makes a new one).
                To fix: there is nothing to reset for it; to keep and reset a value, register it with a scope that keeps one: \
                `.singleton`, `.weak`, `.scoped`, or one of `.named(…)`.
                """)
        guard case .notResettable(_, scope: nil)? = await injector.resetError(Flags.self) else {
            Issue.record("expected notResettable for a registered instance")
            return
        }
    }
}

extension FaceInjector {
    func reset<T>(_ type: T.Type, name: String? = nil) async throws(InjectionError) {
        switch base {
        case .sync(let injector): try injector.reset(type, name: name)
        case .async(let injector): try await injector.reset(type, name: name)
        }
    }

    func resetError<T>(_ type: T.Type, name: String? = nil) async -> InjectionError? {
        do {
            try await reset(type, name: name)
            return nil
        } catch {
            return error
        }
    }

    func reset(_ scope: Scope) async throws(InjectionError) {
        switch base {
        case .sync(let injector): try injector.reset(scope)
        case .async(let injector): try await injector.reset(scope)
        }
    }

    /// The error `reset` throws, or `nil`.
    func resetError(_ scope: Scope) async -> InjectionError? {
        do {
            try await reset(scope)
            return nil
        } catch {
            return error
        }
    }

    /// A child that keeps its own copies of its ancestors' singletons, as a test scope does.
    func childKeepingItsOwnSingletons() -> FaceInjector {
        switch base {
        case .sync(let injector): FaceInjector(.sync(injector.child(singletons: .own)))
        case .async(let injector): FaceInjector(.async(injector.child(singletons: .own)))
        }
    }
}

/// `reset(_:)` tears down latest first across everything it drops: the levels of a chain of
/// injectors, and both faces' teardowns. Regressions (from a hunt): level by level, and on the
/// actor face the synchronous teardowns first.
@Suite struct ResetOrderTests {
    final class Pool: Sendable {}

    final class Client: Sendable {
        init(pool: Pool) {}
    }

    @Test func aResetThroughAChildTearsDownLatestFirstAcrossLevels() throws {
        let app = DependencyInjector()
        let order = Collected<String>()
        app.register(Pool.self, scope: .singleton) { _ in Pool() }.teardown { _ in order.append("app") }
        let child = app.child()
        child.register(Cart.self, scope: .singleton) { _ in Cart() }.teardown { _ in order.append("child") }
        _ = try child.resolve(Cart.self)  // made first
        _ = try child.resolve(Pool.self)  // made second
        try child.reset(.singleton)
        #expect(order.values == ["app", "child"])
    }

    @Test func anActorFaceResetTearsDownLatestFirstAcrossTheFaces() async throws {
        let server = AsyncDependencyInjector()
        let order = Collected<String>()
        server.synchronous.register(Pool.self, scope: .singleton) { _ in Pool() }.teardown { _ in order.append("pool") }
        await server.register(Client.self, scope: .singleton) { r in try await Client(pool: r.resolve()) }
            .teardown { _ async in order.append("client") }
        _ = try await server.resolve(Client.self)
        try await server.reset(.singleton)
        #expect(order.values == ["client", "pool"])  // the client before the pool it came from
    }
}
