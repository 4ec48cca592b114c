public import Injector
public import Testing

/// A Swift Testing trait that runs each test in its own child injector.
///
/// ```swift
/// @Test(.injecting { $0.register(MockPayments() as PaymentService) })
/// func checkoutCharges() throws {
///     let checkout = Checkout()  // @Inject resolves MockPayments, in this test only
///     #expect(try checkout.pay() == .charged)
/// }
///
/// @Suite(.injecting { $0.register(FixedClock() as Clock) })
/// struct ReceiptTests { … }  // every test (and every argument of a parameterised test) gets its own child
/// ```
///
/// The child's parent is `DependencyInjector.current` when the test starts (usually
/// `shared`), so the app's registrations stay visible and only the overrides differ. Because
/// each test case gets its own injector, through the task-local
/// `DependencyInjector.current`, tests with this trait can run in parallel and
/// never see one another's registrations. A suite's trait and a test's trait nest: the
/// test's overrides win.
public struct InjectingTrait: TestTrait, SuiteTrait, TestScoping {
    let configure: @Sendable (DependencyInjector) throws -> Void

    /// Applies to every test in a suite, not just to the suite.
    public var isRecursive: Bool { true }

    /// A scope per test case; none for a suite as a whole, so that suites do not share one
    /// injector between their tests.
    public func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
        testCase == nil ? nil : self
    }

    /// Runs `function` with a fresh child of the current injector, configured by this
    /// trait, as `DependencyInjector.current`.
    public func provideScope(
        for test: Test,
        testCase: Test.Case?,
        performing function: @Sendable () async throws -> Void
    ) async throws {
        try await DependencyInjector.current.withOverrides(configure) {
            try await function()
        }
    }
}

extension Trait where Self == InjectingTrait {
    /// Runs each test in its own child injector, configured by `configure`.
    ///
    /// ```swift
    /// @Test(.injecting { $0.register(MockPayments() as PaymentService) })
    /// func checkoutCharges() throws { … }
    ///
    /// @Test(.injecting())  // isolation only: the test registers what it needs itself
    /// func registersItsOwn() throws { DependencyInjector.current.register(…) }
    /// ```
    public static func injecting(
        _ configure: @escaping @Sendable (DependencyInjector) throws -> Void = { _ in }
    ) -> Self {
        InjectingTrait(configure: configure)
    }
}
