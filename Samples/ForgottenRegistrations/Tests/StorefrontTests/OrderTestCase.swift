#if canImport(XCTest)
    import Injector
    import InjectorTesting
    import Storefront
    import XCTest

    // The same with XCTest: `testForgottenRegistration` and `testForgottenMockUnderStrictMode`
    // fail on purpose, each with its message; the other methods pass.

    final class OrderTestCase: InjectorTestCase {
        override func registerDependencies(in injector: DependencyInjector) {
            registerStorefront(in: injector)
            injector.register(StubGateway() as any PaymentGateway)
        }

        func testAResolvedViewModelBuys() throws {
            let model = try injector.resolve(OrderViewModel.self)
            XCTAssertEqual(model.buy(for: 1), "GET https://shop.example/users/1: charged 500 in a test")
        }

        func testACheckedViewModelBuys() throws {
            let model = try injector.make { OrderViewModel() }
            XCTAssertEqual(model.buy(for: 2), "GET https://shop.example/users/2: charged 500 in a test")
        }

        func testForgottenRegistration() throws {
            injector.unregister(AppConfig.self)
            _ = try injector.resolve(OrderViewModel.self)
        }
    }

    final class StrictOrderTestCase: InjectorTestCase {
        override var isStrict: Bool { true }
        override func registerApp(in injector: DependencyInjector) { registerStorefront(in: injector) }
        override func registerDependencies(in injector: DependencyInjector) {
            injector.register(StubUsers() as any UserRepository)
        }

        func testWhatTheTestProvidesIsUsed() throws {
            injector.register(StubGateway() as any PaymentGateway)
            let model = try injector.resolve(OrderViewModel.self)
            XCTAssertEqual(model.buy(for: 3), "user 3: charged 500 in a test")
        }

        func testForgottenMockUnderStrictMode() throws {
            _ = try injector.resolve(OrderViewModel.self)
        }
    }
#endif
