public import Injector
public import Testing

/// A Swift Testing trait that runs each test in a test scope of its own, one for both faces.
///
/// ```swift
/// @Test(.injecting { $0.register(MockPayments() as PaymentService) })
/// func checkoutCharges() throws {
///     let checkout = Checkout()  // @Inject resolves MockPayments, in this test only
///     #expect(try checkout.pay() == .charged)
/// }
///
/// @Test(.injecting(async: { await $0.register(MockMailer() as any Mailer) }))
/// func signUpSendsMail() async throws {
///     try await SignUp().run()  // resolves MockMailer through AsyncDependencyInjector.current
/// }
///
/// @Suite(.injecting { $0.register(FixedClock() as Clock) })
/// struct ReceiptTests { … }  // every test (and every argument of a parameterised test) gets its own child
/// ```
///
/// Each test case runs with a child of `DependencyInjector.current` as
/// `DependencyInjector.current`, and its actor face as `AsyncDependencyInjector.current`,
/// as `withOverrides` makes them: one scope, so what either configuration (or the test)
/// registers, either face resolves. The parent is usually the `shared` root, whose two faces
/// are one injector; when the two `current` injectors are not faces of one (a test that bound
/// others), each gets a child of its own. The app's registrations stay visible and only the
/// overrides differ. Because each test case gets its own injectors, through the task-locals, tests with
/// this trait can run in parallel and never see one another's registrations. A suite's trait
/// and a test's trait nest: the test's overrides win.
///
/// A wrapped property (`@Inject`, `@LazyInject`, `@OptionalInject`) whose resolution fails
/// in the test records an issue at once, at the property's declaration, with the full message:
/// the report names the test and what is missing even if a later read of the property stops
/// the process. A test that expects the failure wraps it in `withKnownIssue`. What fails in a
/// `Task.detached` (which has no `Test.current`) is recorded when the test's body returns,
/// outside any `withKnownIssue`; what fails after the test ended is printed, naming it.
///
/// Each scope keeps its own singletons: a singleton registered in
/// the app is built afresh in the test, with the test's overrides, and dropped after it, so no
/// test sees another test's singletons and the app's own are never created.
public struct InjectingTrait: TestTrait, SuiteTrait, TestScoping {
    let configure: @Sendable (DependencyInjector) throws -> Void
    /// A configuration that must run on the main actor (``Testing/Trait/injecting(mainActor:async:)``).
    var configureOnMainActor: (@MainActor @Sendable (DependencyInjector) throws -> Void)?
    let configureAsync: @Sendable (AsyncDependencyInjector) async throws -> Void
    /// Whether, and over which app, the scopes are strict (``Testing/Trait/injecting(_:_:async:)``).
    var strictMode: StrictMode?

    /// Applies to every test in a suite, not just to the suite.
    public var isRecursive: Bool { true }

    /// A scope per test case; none for a suite as a whole, so that suites do not share one
    /// injector between their tests.
    public func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
        testCase == nil ? nil : self
    }

    /// Runs `function` with fresh children of the current injectors, configured by this
    /// trait, as `DependencyInjector.current` and `AsyncDependencyInjector.current`.
    public func provideScope(
        for test: Test,
        testCase: Test.Case?,
        performing function: @Sendable () async throws -> Void
    ) async throws {
        // A strict mode's app registrations in plain children above the test's scopes.
        var injector = DependencyInjector.current
        var asyncInjector = AsyncDependencyInjector.current
        // Both faces over one core (the `shared` root, or a scope of it): one scope for both.
        let isOneCore = asyncInjector.synchronous === injector
        if let strictMode {
            injector = injector.child()
            asyncInjector = isOneCore ? asyncInjector.face(ofChild: injector) : asyncInjector.child()
            do {
                try strictMode.app(injector)
                try await strictMode.asyncApp(asyncInjector)
            } catch {
                // What the app made before it threw (an install's eager singleton) is torn down
                // as it is when the test ends: the test never runs, and nothing else closes it.
                await closeStrictApp(injector, asyncInjector, isOneCore: isOneCore)
                throw error
            }
        }
        let isStrict = strictMode != nil
        let allowed = strictMode?.allowed ?? []
        let (app, asyncApp) = (injector, asyncInjector)
        // Bound outside the scopes, so that their teardowns' failures, when they end, are the test's.
        let recorder = TestIssueRecorder.recordingIssues(of: test)
        // What failed in tasks that could not record on the test (`Task.detached`), on it now;
        // what fails after, printed (see `TestIssueRecorder.end()`).
        defer { recorder.end() }
        do {
            try await TestIssueRecorder.$current.withValue(recorder) {
                do {
                    try await inScopes(
                        over: app, asyncApp, isOneCore: isOneCore, strict: isStrict, allowing: allowed, function)
                } catch {
                    await closeStrictApp(app, asyncApp, isOneCore: isOneCore)
                    throw error
                }
                await closeStrictApp(app, asyncApp, isOneCore: isOneCore)
            }
        } catch  where recorder.hasRecorded(error) {
            // A strict scope's refusal, recorded on the test when it happened (not as a known
            // issue): thrown again, it would be reported twice. The test fails with the issue.
        }
    }

    /// Runs `function` in the test's scopes under `app` and `asyncApp`: one for both faces where
    /// they are one core, else one per face.
    private func inScopes(
        over app: DependencyInjector,
        _ asyncApp: AsyncDependencyInjector,
        isOneCore: Bool,
        strict: Bool,
        allowing allowed: [any Any.Type],
        _ function: @Sendable () async throws -> Void
    ) async throws {
        if isOneCore {
            try await inOneScope(over: asyncApp, strict: strict, allowing: allowed, function)
            return
        }
        try await app.withOverrides(strict: strict, allowing: allowed, configure) {
            try await configureOnMainActor(DependencyInjector.current)
            return try await asyncApp.withOverrides(strict: strict, allowing: allowed, configureAsync) {
                try await function()
            }
        }
    }

    /// Closes the strict mode's app children, once the test's scopes have ended: what the app
    /// made there (an eager singleton its `install` built) is torn down with the test.
    private func closeStrictApp(_ app: DependencyInjector, _ asyncApp: AsyncDependencyInjector, isOneCore: Bool) async {
        guard strictMode != nil else { return }
        await asyncApp.closeReportingFailures()
        if !isOneCore { app.closeReportingFailures() }
    }

    /// Runs `function` in one test scope under `app` for both faces, configured by this trait:
    /// the actor face's scope (which awaits its asynchronous teardowns when it ends), with its
    /// registry as `DependencyInjector.current`.
    private func inOneScope(
        over app: AsyncDependencyInjector,
        strict: Bool,
        allowing allowed: [any Any.Type],
        _ function: @Sendable () async throws -> Void
    ) async throws {
        try await app.withOverrides(strict: strict, allowing: allowed) { scope in
            try configure(scope.synchronous)
            try await DependencyInjector.$current.withValue(scope.synchronous) {
                try await configureOnMainActor(scope.synchronous)
                try await configureAsync(scope)
            }
        } operation: {
            try await DependencyInjector.$current.withValue(AsyncDependencyInjector.current.synchronous) {
                try await function()
            }
        }
    }

    /// Runs the main-actor configuration, if any, on `scope`.
    private func configureOnMainActor(_ scope: DependencyInjector) async throws {
        guard let configureOnMainActor else { return }
        try await MainActor.run { try configureOnMainActor(scope) }
    }
}

extension Trait where Self == InjectingTrait {
    /// Runs each test in its own child injectors, configured by `configure` (the
    /// `DependencyInjector`) and `configureAsync` (the `AsyncDependencyInjector`).
    ///
    /// ```swift
    /// @Test(.injecting { $0.register(MockPayments() as PaymentService) })
    /// func checkoutCharges() throws { … }
    ///
    /// @Test(.injecting { $0.register(MockPayments() as PaymentService) } async: {
    ///     await $0.register(MockMailer() as any Mailer)
    /// })
    /// func checkoutSendsAReceipt() async throws { … }
    ///
    /// @Test(.injecting())  // isolation only: the test registers what it needs itself
    /// func registersItsOwn() async throws { await AsyncDependencyInjector.current.register(…) }
    /// ```
    ///
    /// `configure` runs first; while `configureAsync` runs, `DependencyInjector.current` is
    /// already the test's, so the values it resolves can be registered there.
    public static func injecting(
        _ configure: @escaping @Sendable (DependencyInjector) throws -> Void = { _ in },
        async configureAsync: @escaping @Sendable (AsyncDependencyInjector) async throws -> Void = { _ in }
    ) -> Self {
        InjectingTrait(configure: configure, configureAsync: configureAsync)
    }

    /// ``injecting(_:async:)`` for a strict scope: a test fails when it resolves one of the
    /// app's registrations that it did not provide, so that a forgotten mock never reaches a
    /// live service.
    ///
    /// ```swift
    /// @Suite(.injecting(.strict(app: registerServices)) {
    ///     $0.register(StubWeather() as any WeatherService)  // the suite's stand-ins
    /// })
    /// struct ForecastTests {
    ///     @Test(.injecting { $0.register(FixedClock() as any Clock) })  // and one test's
    ///     func showsTheForecast() throws { … }
    /// }
    /// ```
    ///
    /// The app's registrations are those of ``StrictMode/strict(app:asyncApp:allowing:)``'s
    /// `app` and `asyncApp`, made in a scope of their own above the test's, and those already
    /// in `current` (the `shared` injectors, say). Resolving one of them that the test did not
    /// register itself throws `InjectionError.notProvidedInTest` and records an issue naming
    /// the type, where it was registered, and the fix — unless the registration carries a test
    /// double (`.inTests { … }`, used in its place), is allowed in tests (`.allowedInTests()`),
    /// or its type is in `allowing`. What `configure`, `configureAsync` and nested traits
    /// register is the test's own.
    public static func injecting(
        _ mode: StrictMode,
        _ configure: @escaping @Sendable (DependencyInjector) throws -> Void = { _ in },
        async configureAsync: @escaping @Sendable (AsyncDependencyInjector) async throws -> Void = { _ in }
    ) -> Self {
        var trait = InjectingTrait(configure: configure, configureAsync: configureAsync)
        trait.strictMode = mode
        return trait
    }

    /// ``injecting(_:async:)`` for a configuration that runs on the main actor, as the
    /// closures of a target whose default isolation is the main actor (Xcode 26's app
    /// default) build main-actor types. Mark the closure `@MainActor`:
    ///
    /// ```swift
    /// @Suite(.injecting { @MainActor in $0.register(FixedCatalog() as any CatalogAPI) })
    /// struct ShopTests { … }
    /// ```
    public static func injecting(
        mainActor configure: @escaping @MainActor @Sendable (DependencyInjector) throws -> Void,
        async configureAsync: @escaping @Sendable (AsyncDependencyInjector) async throws -> Void = { _ in }
    ) -> Self {
        var trait = InjectingTrait(configure: { _ in }, configureAsync: configureAsync)
        trait.configureOnMainActor = configure
        return trait
    }
}
