import Injector
import TestSupport
import Testing

/// `register(_:initializer:)`: each parameter of an initializer resolved by its type, on both
/// faces; optional and provider-handle parameters; a failing parameter named by position; the
/// edges in `graph()` before any resolve.
@Suite struct InitializerRegistrationTests {
    final class Cart: Sendable {}
    final class Coupons: Sendable {}
    final class Analytics: Sendable {}
    protocol Payments: Sendable {}
    final class Stripe: Payments {
        let cart: Cart
        init(cart: Cart) { self.cart = cart }
    }

    final class Checkout: Sendable {
        let cart: Cart
        let payments: any Payments
        let analytics: Analytics?

        init(cart: Cart, payments: any Payments, analytics: Analytics?) {
            self.cart = cart
            self.payments = payments
            self.analytics = analytics
        }
    }

    /// Takes its coupons later, through a handle of each face.
    final class Basket: Sendable {
        let coupons: ProviderHandle<Coupons>
        init(coupons: ProviderHandle<Coupons>) { self.coupons = coupons }
    }

    final class AsyncBasket: Sendable {
        let coupons: AsyncProviderHandle<Coupons>
        init(coupons: AsyncProviderHandle<Coupons>) { self.coupons = coupons }
    }

    /// `Cart` (a singleton), `any Payments` from `Stripe.init`, and `Checkout` from its
    /// initializer; `Analytics` and `Coupons` are not registered.
    private func app(_ face: Face) async -> FaceInjector {
        let app = face.makeInjector()
        switch app.base {
        case .sync(let injector):
            injector.register(Cart.self, scope: .singleton, initializer: Cart.init)
            injector.register((any Payments).self, initializer: Stripe.init)
            injector.register(Checkout.self, initializer: Checkout.init)
        case .async(let injector):
            await injector.register(Cart.self, scope: .singleton, initializer: Cart.init)
            await injector.register((any Payments).self, initializer: Stripe.init)
            await injector.register(Checkout.self, initializer: Checkout.init)
        }
        return app
    }

    @Test(arguments: Face.allCases)
    func eachParameterIsResolvedByItsTypeAndAnOptionalToNil(face: Face) async throws {
        let app = await app(face)
        let checkout = try await app.resolve(Checkout.self)
        #expect(checkout.cart === (checkout.payments as? Stripe)?.cart)  // the singleton, once
        #expect(checkout.analytics == nil)  // nothing registered: nil, as @OptionalInject
        await app.register(Analytics(), as: Analytics.self)
        #expect(try await app.resolve(Checkout.self).analytics != nil)
    }

    @Test func aProviderHandleParameterResolvesWhenCalled() async throws {
        let injector = DependencyInjector()
        injector.register(Basket.self, initializer: Basket.init)
        #expect(
            injector.graph().edges.contains {
                $0.from == DependencyKey(Basket.self) && $0.to == DependencyKey(Coupons.self)
            })
        let basket = try injector.resolve(Basket.self)
        #expect(throws: InjectionError.self) { try basket.coupons() }  // nothing registered yet
        let coupons = Coupons()
        injector.register(coupons)
        #expect(try basket.coupons() === coupons)

        let server = AsyncDependencyInjector()
        await server.register(AsyncBasket.self, initializer: AsyncBasket.init)
        let asyncBasket = try await server.resolve(AsyncBasket.self)
        await server.register(coupons)
        #expect(try await asyncBasket.coupons() === coupons)
    }

    @Test(arguments: Face.allCases)
    func aParameterThatCannotBeResolvedIsNamedByItsPosition(face: Face) async throws {
        let app = face.makeInjector()
        switch app.base {
        case .sync(let injector):
            injector.register(Cart.self, initializer: Cart.init)
            injector.register((any Payments).self, initializer: Stripe.init)
            injector.register(Checkout.self, initializer: Checkout.init)
            injector.unregister(Cart.self)
        case .async(let injector):
            await injector.register((any Payments).self, initializer: Stripe.init)
            await injector.register(Checkout.self, initializer: Checkout.init)
        }
        let error = await app.resolveError(Checkout.self)
        guard case .notRegistered(let key, let path, _)? = error else {
            Issue.record("expected notRegistered, got \(String(describing: error))")
            return
        }
        #expect(key == DependencyKey(Cart.self))
        #expect(path == [DependencyKey(Checkout.self), DependencyKey(Cart.self)])
        #expect(path[1].property?.name == "init parameter 1")
        #expect(path[1].property?.ownerTypeName == "InjectorTests.InitializerRegistrationTests.Checkout")
        #expect(
            error?.description.contains(
                "Resolution path: InjectorTests.InitializerRegistrationTests.Checkout.init parameter 1 "
                    + "(InjectorTests/InitializerRegistrationTests.swift:") == true)
    }

    @Test(arguments: Face.allCases)
    func theGraphHasTheParametersEdgesBeforeAnyResolve(face: Face) async {
        let app = await app(face)
        let edges = Set(await app.graph().edges.filter { $0.from == DependencyKey(Checkout.self) }.map(\.to))
        #expect(edges == [DependencyKey(Cart.self), DependencyKey((any Payments).self)])  // `Analytics?`: nil
    }

    /// An optional parameter whose type nothing registers resolves to `nil`: `graph()`, before
    /// and after `verify()`, draws no node "not registered" for it, nor for a closure factory's
    /// resolve of the optional; the edge is drawn once the type is registered. (Catches: the
    /// graph drew `Analytics` red and dashed, a missing registration that is not.)
    @Test(arguments: Face.allCases)
    func anOptionalThatResolvesToNilIsNoMissingRegistrationInTheGraph(face: Face) async throws {
        let app = await app(face)
        await app.register(Coupons.self, resolving: Analytics?.self) { _ in Coupons() }
        #expect(try await app.resolve(Checkout.self).analytics == nil)
        for verified in [false, true] {
            if verified { try await app.verify() }
            let graph = await app.graph()
            #expect(graph.nodes.filter { $0.kind == nil }.isEmpty, "\(graph.nodes)")
            #expect(!graph.dot.contains("not registered"))
        }
        await app.register(Analytics(), as: Analytics.self)
        let needsAnalytics = Set(await app.graph().edges.filter { $0.to == DependencyKey(Analytics.self) }.map(\.from))
        #expect(needsAnalytics == [DependencyKey(Checkout.self), DependencyKey(Coupons.self)])
    }

    /// A parameter of the type a factory is handed (`DependencyInjector` on the synchronous face,
    /// `AsyncResolver` on the actor face) gets the run's, as a factory's `r`, not a registration:
    /// the child's, resolving a transient its parent registered; nothing for `verify()` to
    /// report; no edge in `graph()`.
    @Test(arguments: Face.allCases)
    func aParameterOfTheResolverAFactoryIsHandedGetsTheRuns(face: Face) async throws {
        let parent = face.makeInjector()
        let child = parent.child()
        let seven: Int
        switch (parent.base, child.base) {
        case (.sync(let parent), .sync(let child)):
            parent.register(Int.self) { _ in 7 }
            parent.register(InjectorKeeper.self, initializer: InjectorKeeper.init(injector:))
            child.register(Int.self) { _ in 8 }
            #expect(try child.resolve(InjectorKeeper.self).injector.resolve(Int.self) == 8)
            seven = try parent.resolve(InjectorKeeper.self).injector.resolve(Int.self)
        case (.async(let parent), .async(let child)):
            await parent.register(Int.self) { _ in 7 }
            await parent.register(ResolverKeeper.self, initializer: ResolverKeeper.init(resolver:))
            await child.register(Int.self) { _ in 8 }
            #expect(try await child.resolve(ResolverKeeper.self).resolver.resolve(Int.self) == 8)
            seven = try await parent.resolve(ResolverKeeper.self).resolver.resolve(Int.self)
        default:
            Issue.record("a child of another face")
            return
        }
        #expect(seven == 7)

        try await parent.verify()

        let graph = await parent.graph()
        let resolvers: Set = [DependencyKey(DependencyInjector.self), DependencyKey(AsyncResolver.self)]
        #expect(graph.nodes.filter { resolvers.contains($0.key) }.isEmpty, "\(graph.nodes)")
        #expect(graph.edges.filter { resolvers.contains($0.to) }.isEmpty, "\(graph.edges)")
    }

    @Test func anInitializerWithoutParametersIsAFactory() throws {
        let injector = DependencyInjector()
        injector.register(Cart.self, scope: .singleton, initializer: Cart.init)
        #expect(try injector.resolve(Cart.self) === injector.resolve(Cart.self))
    }

    /// Registers `Stripe` and `Checkout` from their initializers, each counted when it is
    /// called, and `Cart` from its initializer unless `withCart` is false.
    private func countedApp(_ face: Face, calls: Counter, withCart: Bool = true) async -> FaceInjector {
        let app = face.makeInjector()
        let stripe = { @Sendable (cart: Cart) -> any Payments in
            calls.increment()
            return Stripe(cart: cart)
        }
        let checkout = { @Sendable (cart: Cart, payments: any Payments, analytics: Analytics?) in
            calls.increment()
            return Checkout(cart: cart, payments: payments, analytics: analytics)
        }
        let cart = { @Sendable () in
            calls.increment()
            return Cart()
        }
        switch app.base {
        case .sync(let injector):
            if withCart { injector.register(Cart.self, scope: .singleton, initializer: cart) }
            injector.register((any Payments).self, scope: .singleton, initializer: stripe)
            injector.register(Checkout.self, initializer: checkout)
        case .async(let injector):
            if withCart { await injector.register(Cart.self, scope: .singleton, initializer: cart) }
            await injector.register((any Payments).self, scope: .singleton, initializer: stripe)
            await injector.register(Checkout.self, initializer: checkout)
        }
        return app
    }

    @Test(arguments: Face.allCases)
    func verifyChecksInitializersWithoutCallingThem(face: Face) async throws {
        let calls = Counter()
        let app = await countedApp(face, calls: calls)

        try await app.verify()

        #expect(calls.value == 0)  // no side effect at start-up
        #expect(try await app.resolve(Checkout.self).payments is Stripe)
        #expect(calls.value == 3)
    }

    @Test(arguments: Face.allCases)
    func verifyReportsAnInitializersMissingParameterWithItsPosition(face: Face) async throws {
        let calls = Counter()
        let app = await countedApp(face, calls: calls, withCart: false)

        let error = try await #require(throws: VerificationError.self) { try await app.verify() }

        #expect(calls.value == 0)
        let missing = try #require(error.failures.first { if case .notRegistered = $0 { true } else { false } })
        #expect(missing.path.last == DependencyKey(Cart.self))
        #expect(missing.path.last?.property?.name == "init parameter 1")
    }

    @Test func verifyBuildsAnInitializerThatAClosureFactoryNeeds() throws {
        let calls = Counter()
        let injector = DependencyInjector()
        injector.register(Cart.self) { @Sendable () in
            calls.increment()
            return Cart()
        }
        injector.register(Coupons.self) { r in
            _ = try r.resolve(Cart.self)  // a closure factory needs a real cart
            return Coupons()
        }

        try injector.verify()

        #expect(calls.value == 1)  // for the closure factory; the cart's own check called nothing
    }
}
