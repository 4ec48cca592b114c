import Injector
import InjectorTesting
import Storefront
import Testing

// A client app's Swift Testing suite, run in parallel. The tests of `HealthyOrderTests` and
// `StrictOrderTests` pass; each test of `ForgottenRegistrationTests` forgets something on
// purpose and fails with the message that says what, while every other test runs beside it
// and the run reaches its summary. `.ci/run` checks exactly that.

@Suite(.injecting { registerStorefront(in: $0) })
struct HealthyOrderTests {
    @Test(.injecting { $0.register(StubGateway() as any PaymentGateway) }, arguments: 1...50)
    func aResolvedViewModelBuys(user: Int) throws {
        let model = try DependencyInjector.current.resolve(OrderViewModel.self)
        #expect(model.buy(for: user) == "GET https://shop.example/users/\(user): charged 500 in a test")
    }

    @Test(.injecting { $0.register(StubGateway() as any PaymentGateway) })
    func aViewModelMadeByHandAndCheckedBuys() throws {
        let model = try DependencyInjector.current.make { OrderViewModel() }
        #expect(model.buy(for: 7) == "GET https://shop.example/users/7: charged 500 in a test")
    }

    @Test func theLiveGatewayIsUsedWhereTheTestAllowsIt() throws {
        let model = try DependencyInjector.current.resolve(OrderViewModel.self)
        #expect(model.buy(for: 1) == "GET https://shop.example/users/1: charged 500 through Stripe")
    }
}

/// A strict suite: the app's registrations above, the test's stand-ins in it.
@Suite(.injecting(.strict(app: registerStorefront)) { $0.register(StubUsers() as any UserRepository) })
struct StrictOrderTests {
    @Test(.injecting { $0.register(StubGateway() as any PaymentGateway) })
    func whatTheTestProvidesIsUsed() throws {
        let model = try DependencyInjector.current.resolve(OrderViewModel.self)
        #expect(model.buy(for: 2) == "user 2: charged 500 in a test")
    }

    /// Deliberately broken: the test forgets the payment gateway's stand-in, so the live one
    /// would be used; the strict scope refuses it.
    @Test func forgottenMockUnderStrictMode() throws {
        let model = try DependencyInjector.current.resolve(OrderViewModel.self)
        #expect(model.buy(for: 3).hasPrefix("user 3"))
    }

    /// Deliberately broken: the test forgets the receipt store's stand-in behind a
    /// `@LazyInject`; `make` checks it without resolving it, and throws the refusal (reading
    /// the property would have stopped the run).
    @Test func forgottenLazyMockUnderStrictMode() throws {
        let model = try DependencyInjector.current.make { ReceiptsViewModel() }
        #expect(model.latestReceipt(for: 3).isEmpty == false)
    }
}

/// Each test forgets a registration on purpose, and must fail alone, with its message.
@Suite(.injecting(registerStorefrontWithoutConfig))
struct ForgottenRegistrationTests {
    /// Through the injector: the missing configuration is deep in the factories' chain.
    @Test func forgottenRegistrationThroughResolve() throws {
        _ = try DependencyInjector.current.resolve((any UserRepository).self)
    }

    /// Through the wrappers of an object a factory builds: the resolve throws, with the path
    /// through the properties.
    @Test func forgottenRegistrationThroughAFactoryBuiltObject() throws {
        let model = try DependencyInjector.current.resolve(OrderViewModel.self)
        #expect(model.buy(for: 4).isEmpty == false)
    }

    /// Through checked construction: `make` throws what the object's wrappers could not resolve.
    @Test func forgottenRegistrationThroughCheckedConstruction() throws {
        let model = try DependencyInjector.current.make { OrderViewModel() }
        #expect(model.buy(for: 5).isEmpty == false)
    }

    /// Through checked construction of a `@LazyInject`: `make` checks that the receipt store
    /// can be resolved, without resolving it, and throws (reading the property would have
    /// stopped the run).
    @Test func forgottenLazyRegistrationThroughCheckedConstruction() throws {
        let model = try DependencyInjector.current.make { ReceiptsViewModel() }
        #expect(model.latestReceipt(for: 5).isEmpty == false)
    }

    /// An object made by hand without the check: the failure is recorded on the test when the
    /// object is created. (Reading the property now would stop the process: it is not read.)
    @Test func forgottenRegistrationInAnUncheckedObject() {
        _ = OrderViewModel()
    }
}
