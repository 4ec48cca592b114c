#if canImport(XCTest)
    public import Injector
    public import XCTest

    /// An XCTest base class that runs each test method in its own child injectors, one per face.
    ///
    /// ```swift
    /// final class CheckoutTests: InjectorTestCase {
    ///     override func registerDependencies(in injector: DependencyInjector) {
    ///         injector.register(MockPayments() as PaymentService)
    ///     }
    ///
    ///     override func registerDependencies(in injector: AsyncDependencyInjector) async throws {
    ///         await injector.register(MockMailer() as any Mailer)
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
    /// Before each test method, a fresh test scope under `DependencyInjector.current` (usually
    /// `shared`; in between, a scope for what ``registerApp(in:)-(DependencyInjector)`` registers)
    /// is created and bound as the `current` injector of both faces while the method runs,
    /// including `async` methods and the tasks they create with `Task {}`: ``injector`` and
    /// ``asyncInjector`` are its two faces (`asyncInjector.synchronous === injector`), so what
    /// either registers, the other resolves. (Where `AsyncDependencyInjector.current` is not the
    /// actor face of `DependencyInjector.current`, each gets a scope of its own.) As with
    /// `withOverrides`, the scope keeps its own singletons:
    /// a singleton registered in the app is built afresh in the test,
    /// with its overrides. When the method ends, the bindings are gone and so is everything
    /// registered and created in them.
    ///
    /// A wrapped property (`@Inject`, `@LazyInject`, `@OptionalInject`) whose resolution fails
    /// while the method runs fails the test at once (`XCTFail` at the property's declaration,
    /// with the full message), even if a later read of the property stops the process. What
    /// fails after the method ended, in work it left running, is printed with its name: XCTest
    /// would record it on whichever test runs then.
    ///
    /// ``registerDependencies(in:)-(DependencyInjector)`` configures the first before the method
    /// starts; ``registerDependencies(in:)-(AsyncDependencyInjector)`` configures the second in
    /// `setUp() async throws`, which XCTest runs before `setUp()`.
    ///
    /// > Important: A subclass that overrides `setUp() async throws` must call
    /// > `try await super.setUp()` first, as XCTest asks, or the async registrations are skipped.
    ///
    /// Compiled where XCTest can be imported; on watchOS it needs watchOS 7.4 or later, the first
    /// version with XCTest (see the Platforms article of the Injector documentation).
    @available(watchOS 7.4, *)
    open class InjectorTestCase: XCTestCase {
        /// The injector the running test method resolves from. Register test-specific
        /// dependencies here.
        public private(set) var injector = DependencyInjector()

        /// The async injector the running test method resolves from
        /// (`AsyncDependencyInjector.current`). Register test-specific async dependencies here.
        public private(set) var asyncInjector = AsyncDependencyInjector()

        /// The async injector of the app's registrations, above `asyncInjector`.
        private var asyncApp: AsyncDependencyInjector?

        /// What `registerApp(in:)` or `registerDependencies(in:)` threw for the method about to
        /// run, thrown again by `setUp()`.
        private var registrationFailure: (any Error)?

        /// The recorder of the method running, which knows the refusals it recorded.
        private var issueRecorder: TestIssueRecorder?

        /// Override to return `true` for strict scopes: a test method fails when it resolves
        /// one of the app's registrations (``registerApp(in:)-(DependencyInjector)``, or
        /// `current`'s) that it did not provide, unless the registration carries a test double
        /// (`.inTests { … }`) or is allowed (`.allowedInTests()`, ``allowedInTests``). See the
        /// `.injecting(.strict(…))` trait.
        ///
        /// ```swift
        /// final class CheckoutTests: InjectorTestCase {
        ///     override var isStrict: Bool { true }
        ///     override func registerApp(in injector: DependencyInjector) { registerServices(in: injector) }
        ///     override func registerDependencies(in injector: DependencyInjector) {
        ///         injector.register(MockPayments() as PaymentService)
        ///     }
        /// }
        /// ```
        open var isStrict: Bool { false }

        /// Override to list the types whose registrations a strict scope uses as they are.
        open var allowedInTests: [any Any.Type] { [] }

        /// Override to register the app's services, in a scope of their own above each test
        /// method's: what a strict scope refuses unless the test provides it. A throw (a
        /// module's `install`, say) fails the test before it starts.
        open func registerApp(in injector: DependencyInjector) throws {}

        /// Override to register the app's async services, above each test method's async scope.
        open func registerApp(in injector: AsyncDependencyInjector) async throws {}

        /// Override to register what every test method of the class needs. Runs before each
        /// test method, in that method's fresh injector. A throw (a module's `install`, say)
        /// fails the test before it starts; an override that does not throw needs no `throws`.
        open func registerDependencies(in injector: DependencyInjector) throws {}

        /// Override to register what every test method of the class needs in the async injector.
        /// Runs in `setUp() async throws` before each test method, in that method's fresh async
        /// injector; a throw fails the test before it starts.
        open func registerDependencies(in injector: AsyncDependencyInjector) async throws {}

        /// Runs the test method with its own injectors as `DependencyInjector.current` and
        /// `AsyncDependencyInjector.current`.
        override open func invokeTest() {
            let app = DependencyInjector.current.child()
            // A failed registration fails the test in `setUp()`, which XCTest then does not run.
            do {
                try registerApp(in: app)
            } catch {
                registrationFailure = error
            }
            // Bound outside the scopes, so that their teardowns' failures, when they end, are the test's.
            let recorder = TestIssueRecorder.failingTestCase(named: name)
            issueRecorder = recorder
            TestIssueRecorder.$current.withValue(recorder) { invokeTest(in: app) }
            // What the method's leftover work (a `Task.detached`) fails later is printed, not
            // recorded on the test case XCTest runs then.
            recorder.end()
        }

        #if canImport(Darwin)
            /// Records `issue`, unless it is a strict scope's refusal that the method threw after
            /// the refusal was recorded: reported once.
            override open func record(_ issue: XCTIssue) {
                if issue.type == .thrownError, let error = issue.associatedError,
                    issueRecorder?.hasRecorded(error) == true
                {
                    return
                }
                super.record(issue)
            }
        #else
            /// Records the failure, unless it is a strict scope's refusal that the method threw
            /// after the refusal was recorded: reported once.
            override open func recordFailure(
                withDescription description: String,
                inFile filePath: String,
                atLine lineNumber: Int,
                expected: Bool
            ) {
                // XCTest here gives the thrown error's description, not the error.
                let refused = issueRecorder?.recordedRefusalKeys ?? []
                if !expected, description.hasPrefix("threw error"),
                    refused.contains(where: { description.contains("Injector refused to resolve \($0) in a strict") })
                {
                    return
                }
                super.recordFailure(
                    withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
            }
        #endif

        /// `invokeTest()` in test scopes under `app`, closed when the test method returns.
        private func invokeTest(in app: DependencyInjector) {
            let isOneCore = AsyncDependencyInjector.current.synchronous === app.parent
            app.withOverrides(
                strict: isStrict, allowing: allowedInTests,
                { injector in
                    self.injector = injector
                    guard registrationFailure == nil else { return }
                    do {
                        try registerDependencies(in: injector)
                    } catch {
                        registrationFailure = error
                    }
                }
            ) {
                // The async face's configuration cannot run here: it is awaited in
                // `setUp() async throws`, the app's first.
                let asyncApp: AsyncDependencyInjector
                let asyncInjector: AsyncDependencyInjector
                if isOneCore {
                    // Both faces over one core (the `shared` root, or a scope of it): one scope for
                    // both, as the `.injecting` trait opens.
                    asyncApp = AsyncDependencyInjector.current.face(ofChild: app)
                    asyncInjector = asyncApp.face(ofChild: self.injector)
                } else {
                    asyncApp = AsyncDependencyInjector.current.child()
                    asyncInjector = asyncApp.testChild(strict: isStrict, allowing: allowedInTests)
                }
                self.asyncApp = asyncApp
                self.asyncInjector = asyncInjector
                AsyncDependencyInjector.$current.withValue(asyncInjector) {
                    super.invokeTest()
                }
            }
            // The method's app, over the test scope: what `registerApp` made there is torn down
            // too (over one core, `tearDown()` closed it, awaiting its teardowns).
            if !isOneCore { app.closeReportingFailures() }
        }

        /// Registers the async dependencies of the test method about to run, with
        /// ``registerDependencies(in:)-(AsyncDependencyInjector)``.
        override open func setUp() async throws {
            try await super.setUp()
            if let registrationFailure {
                // Recorded as a failure: XCTest reports a test whose `setUp` throws as skipped. Not
                // again for a strict scope's refusal, recorded as it happened (reported once).
                if issueRecorder?.hasRecorded(registrationFailure) != true {
                    XCTFail("The registrations of \(name) failed: \(registrationFailure)")
                }
                throw registrationFailure
            }
            if let asyncApp { try await registerApp(in: asyncApp) }
            try await registerDependencies(in: asyncInjector)
        }

        /// Closes the test method's scope, awaiting its teardowns: its own singletons and scoped
        /// values are torn down. A subclass that overrides it must call `try await super.tearDown()`.
        override open func tearDown() async throws {
            await asyncInjector.closeReportingFailures()
            await asyncApp?.closeReportingFailures()  // the method's app, over its scope
            try await super.tearDown()
        }
    }
#endif
