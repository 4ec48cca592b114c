public import Injector
public import XCTest

/// An XCTest base class that runs each test method in its own child injector.
///
/// ```swift
/// final class CheckoutTests: InjectorTestCase {
///     override func registerDependencies(in injector: DependencyInjector) {
///         injector.register(MockPayments() as PaymentService)
///     }
///
///     func testCharges() async throws {
///         injector.register(FixedClock() as Clock)  // this test only
///         let checkout = Checkout()                 // @Inject resolves the mocks
///         let outcome = try await checkout.pay()
///         XCTAssertEqual(outcome, .charged)
///     }
/// }
/// ```
///
/// Before each test method, a fresh child of `DependencyInjector.current`
/// (usually `shared`) is created, configured by ``registerDependencies(in:)``, and bound as
/// `current` while the method runs, including `async` methods and the tasks they create with
/// `Task {}`. When the method ends, the binding is gone and so is everything it registered.
open class InjectorTestCase: XCTestCase {
    /// The injector the running test method resolves from. Register test-specific
    /// dependencies here.
    public private(set) var injector = DependencyInjector()

    /// Override to register what every test method of the class needs. Runs before each
    /// test method, in that method's fresh injector.
    open func registerDependencies(in injector: DependencyInjector) {}

    /// Runs the test method with its own injector as `DependencyInjector.current`.
    override open func invokeTest() {
        DependencyInjector.current.withOverrides({ injector in
            self.injector = injector
            registerDependencies(in: injector)
        }) {
            super.invokeTest()
        }
    }
}
