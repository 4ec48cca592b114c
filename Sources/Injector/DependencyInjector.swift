/// A thread-safe container that builds dependencies by type.
///
/// ```swift
/// let injector = DependencyInjector()
/// injector.register(HTTPClient.self, scope: .singleton) { _ in URLSessionClient() }
/// injector.register(PaymentService.self) { r in try StripePayments(http: r.resolve()) }
///
/// let payments = try injector.resolve(PaymentService.self)
/// ```
///
/// Register and resolve from any thread or task at any time. Keys are types (plus an optional
/// name), compared by identity: `A.Config` and `B.Config` never collide. Every failure is a
/// typed ``InjectionError`` that names the types involved and says what to do.
///
/// A ``child()`` sees its parent's registrations and can override them without touching the
/// parent, which is how tests swap in mocks.
public final class DependencyInjector: Sendable {
    /// The process-wide injector, which ``current`` returns unless a scope binds another.
    public static let shared = DependencyInjector()

    /// The injector that the property wrappers and the static conveniences use: ``shared``
    /// unless a task-local scope binds another one, which is how each test gets its own:
    ///
    /// ```swift
    /// let injector = DependencyInjector.shared.child()
    /// injector.register(MockPayments() as PaymentService)
    /// DependencyInjector.$current.withValue(injector) {
    ///     Checkout().pay()  // resolves MockPayments
    /// }
    /// ```
    ///
    /// While an injector runs a factory, it is `current` for that factory's work, so an object
    /// built by a child's factory resolves from the child.
    ///
    /// > Important: Like every task-local value, the binding reaches `Task {}`, `async let` and
    /// > task-group children, but not `Task.detached`, a `Thread` or a `DispatchQueue`.
    @TaskLocal public static var current: DependencyInjector = .shared

    /// The injector this one falls back to for keys it does not hold itself.
    public let parent: DependencyInjector?

    /// This injector's own registrations and the singletons it keeps.
    let registry: Locked<Registry>

    /// Its ready values, published for resolves that take no lock (kept by `registry`'s writes).
    /// `nonisolated(unsafe)`: a `ManagedBuffer` (for its cell in its tail), which cannot be
    /// `Sendable`; its words are touched only atomically, the rest under `registry`'s lock
    /// (see `PublishedTable`).
    @usableFromInline nonisolated(unsafe) let ready: PublishedTable

    /// The values it keeps apart from its registry's (see `KeptValues`), under its registry's
    /// lock: its own copies of its ancestors' singletons when `keepsOwnSingletons`, the values
    /// of `.scoped` registrations (theirs and its own) when it `opensScope`; `nil` for an
    /// injector that does neither.
    var keptValues: LockedKeptValues? {
        keepsValuesForOthers ? LockedKeptValues(registry: registry) : nil
    }

    /// Whether it keeps values of registrations other injectors hold (it has `keptValues`).
    var keepsValuesForOthers: Bool { keepsOwnSingletons || opensScope }

    /// Whether it keeps its own copies of its ancestors' singletons (`ChildSingletons.own`,
    /// what test and preview scopes make), rather than sharing theirs.
    let keepsOwnSingletons: Bool

    /// Whether it is an opened scope (``openScope(fileID:filePath:line:)``, a test scope,
    /// `verify()`'s scratch), which keeps one value of each ``Scope/scoped`` registration.
    let opensScope: Bool

    /// What it makes of its ancestors' registrations when it is a test scope; `nil` for any
    /// other injector (a child of a test scope included: the scope is its parent).
    let testScope: TestScope?

    /// The scope of a registration that names none (and is not made by a module with a
    /// default scope of its own): ``Scope/transient`` unless the injector was created with
    /// another. Children take their parent's.
    public let defaultScope: Scope

    /// Creates an empty injector, independent of ``shared``.
    ///
    /// ```swift
    /// let injector = DependencyInjector(defaultScope: .singleton)  // Swinject's defaultObjectScope
    /// injector.register(Database.self) { _ in Database() }  // a singleton
    /// injector.register(Request.self, scope: .transient) { _ in Request() }
    /// ```
    ///
    /// - Parameter defaultScope: The scope of registrations that name none.
    public init(defaultScope: Scope = .transient) {
        ready = PublishedTable.make()
        registry = Locked(Registry(ready: ready))
        parent = nil
        keepsOwnSingletons = false
        opensScope = false
        testScope = nil
        self.defaultScope = defaultScope
    }

    private init(
        parent: DependencyInjector,
        singletons: ChildSingletons,
        opensScope: Bool = false,
        openedAt site: DeclarationSite? = nil,
        testScope: TestScope? = nil
    ) {
        // A miss of a type it holds nothing of goes to the parent's table, as the walk would
        // (see `PublishedTable.slotPassingMissesUp`), unless the walk has more to do on the way: copies
        // to keep, a test scope's screen, scoped values its parent keeps.
        let passesMissesUp = singletons == .shared && testScope == nil && !parent.opensScope
        ready = PublishedTable.make(above: passesMissesUp ? parent.ready : nil)
        registry = Locked(Registry(ready: ready, scopeOpenedAt: site))
        self.parent = parent
        defaultScope = parent.defaultScope
        keepsOwnSingletons = singletons == .own
        self.opensScope = opensScope
        self.testScope = testScope
        inheritObserver(from: parent)
        // A request's scope opened under a closed injector (a server shut down) begins no
        // request: closed from the start, it builds nothing (principle 14). One atomic load per
        // ancestor. Not a test's scope, whose test may inspect a closed app.
        if site != nil, parent.hasClosingAncestry { markClosed() }
    }

    /// Marks a scope closed from its start (see `init(parent:…)`, `scratchScope()`).
    private func markClosed() {
        registry.withLock { registry in
            registry.isClosed = true
            registry.kept.isClosed = true
        }
        ready.noteClosed()
    }

    /// Whether this injector's `close()` has begun, or an ancestor's: read without their locks
    /// while none has. Recursive (an ancestry is a few injectors deep): a loop retained each
    /// injector it passed.
    private var hasClosingAncestry: Bool {
        isClosing || parent?.hasClosingAncestry ?? false
    }

    /// Whether this injector's own `close()` has begun: read without its lock while it has not.
    private var isClosing: Bool {
        ready.mayBeClosed && registry.withLock { $0.isClosed }
    }

    deinit {
        // A child released without `close()`: all it keeps (its own singletons, an opened
        // scope's scoped values, …) is torn down (principle 11); an opened scope's release is
        // reported besides (principle 14), never leaked in silence. A plain child's is not: it
        // has no `close()` its user is told to call. Closed (the common case for a scope) known
        // without the lock where the OS has the atomics for it.
        guard let parent, !ready.isKnownClosed, !registry.withLock({ $0.isClosed }) else { return }
        // Handed to the nearest ancestor that its user closes, an opened scope or the root, whose
        // `close()` awaits and throws them: a plain child has none its user is told to call.
        var heir = parent
        while !heir.opensScope, let above = heir.parent { heir = above }
        // Failures of teardowns run earlier (a reset, a replacement, a released child's).
        heir.keep(teardownFailures: takeTeardownFailures())
        // No task of its own runs: each holds it.
        guard var taken = closeKeeping() else { return }
        // Moved out: each value released in its turn, once the teardowns of later ones have run
        // (awaited ones too: in the run of the heir's teardowns that released this child, if one
        // did, else in the heir's task; see `handOver(_:)`).
        heir.tearDown(
            releasedScopeKeeping: Self.releases(taken.teardowns.take(), taken.kept.take()),
            openedAt: opensScope ? registry.withLock { $0.kept.openedAt } : nil)
    }

    /// A test scope under this injector: an opened scope that keeps its own singletons, and
    /// uses its ancestors' registrations as `scope` says (see `TestScope`).
    func testChild(_ scope: TestScope) -> DependencyInjector {
        DependencyInjector(parent: self, singletons: .own, opensScope: true, testScope: scope)
    }

    /// A child that keeps its own singletons and opens a scope, which `verify()` resolves in.
    func scratchScope() -> DependencyInjector {
        let scratch = DependencyInjector(parent: self, singletons: .own, opensScope: true)
        // `verify()` of a closed injector builds no value it would keep: each is `closed`. Only its
        // own close: a test scope, a child or a scope opened before an ancestor's close still builds.
        if isClosing { scratch.markClosed() }
        return scratch
    }

    /// Opens a scope under this injector: a child that keeps one value of each
    /// ``Scope/scoped`` registration for every resolve in it (and in its children), such as
    /// one request's transaction and logger. ``close()`` ends it and tears its values down.
    ///
    /// ```swift
    /// app.register(Transaction.self, scope: .scoped) { r in try Transaction(db: r.resolve()) }
    ///     .teardown { try $0.commit() }
    ///
    /// let request = app.openScope()
    /// request.register(RequestContext(id: 42))  // what this scope provides
    /// defer { try? request.close() }
    /// let handler = try request.resolve(OrderHandler.self)
    /// ```
    ///
    /// Otherwise it is a ``child()``: it shares its ancestors' singletons, and what is registered
    /// in it is its own. A scope opened inside another keeps scoped values of its own.
    ///
    /// ``withScope(fileID:filePath:line:_:)`` opens one, runs a body and closes it on every
    /// path. A scope released without ``close()`` while it keeps values to tear down is
    /// reported, at this call's line: recorded on the running test, printed otherwise. Its
    /// values are torn down as it is released. The app's own ``close()`` does not reach the
    /// scopes opened under it: each is closed by whoever opened it. A scope opened under a closed
    /// injector (or under a descendant of one) is closed from the start: it builds no scoped
    /// value (a resolve of one throws ``InjectionError/closed(_:path:)``).
    public func openScope(
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line
    ) -> DependencyInjector {
        DependencyInjector(
            parent: self, singletons: .shared, opensScope: true,
            openedAt: DeclarationSite(fileID: fileID, filePath: filePath, line: line))
    }

    /// A preview scope under this injector: a child in which every registration above it
    /// that has a preview stand-in (``Registered/inPreviews(fileID:line:_:)``) answers with
    /// it, for SwiftUI previews, screenshots or a demo mode. The code that runs chooses it
    /// (a preview, a launch argument read once at start-up); nothing guesses it.
    ///
    /// ```swift
    /// app.register((any API).self, scope: .singleton) { _ in LiveAPI() }
    ///     .inPreviews { _ in SampleAPI() }
    ///
    /// #Preview {
    ///     DependencyInjector.$current.withValue(app.previewScope()) { OrdersView() }
    /// }
    /// ```
    ///
    /// Like a test scope, it keeps its own singletons (built with the stand-ins) and opens a
    /// scope; what is registered in it is its own. Registrations without a stand-in answer as
    /// they are. ``registrations`` says which answer with their preview
    /// (``RegistrationInfo/answeredBy``).
    public func previewScope() -> DependencyInjector {
        testChild(.preview)
    }

    /// Whether this is a test scope (`withOverrides`, the `.injecting` trait's), not a preview one.
    package var isTestScope: Bool {
        testScope.map { !$0.isPreview } ?? false
    }

    /// A test scope under this injector, `strict` if asked, for `InjectorTesting`: kept with the
    /// recorder bound (see `TestScope.recorder`).
    package func testChild(strict: Bool, allowing: [any Any.Type]) -> DependencyInjector {
        testChild(TestScope(isStrict: strict, allowing: allowing, recorder: TestIssueRecorder.current))
    }

    /// The recorder of the nearest test scope at or above this injector, if any (see
    /// `TestScope.recorder`). Read on failure only.
    var testScopeRecorder: TestIssueRecorder? {
        if let recorder = testScope?.recorder { return recorder }
        return parent?.testScopeRecorder
    }

    /// Creates an injector that sees this one's registrations and can override them locally,
    /// sharing its ancestors' singletons.
    ///
    /// ```swift
    /// let session = DependencyInjector.shared.child()
    /// session.register(SessionToken("t0k3n"))  // the parent is untouched
    /// ```
    ///
    /// An ancestor's singleton is created and kept by the ancestor, with its registrations, so
    /// every child shares it and no override leaks into it. An ancestor's transient is built by
    /// the resolving injector, so the child's overrides apply to its dependencies. A test that
    /// needs its own singletons, built with its mocks, takes a test scope instead:
    /// ``withOverrides(strict:allowing:_:operation:)``, the testing trait or `InjectorTestCase`.
    public func child() -> DependencyInjector {
        child(singletons: .shared)
    }

    /// A child with its ancestors' singletons (`.shared`, what `child()` makes) or its own
    /// (`.own`, what test scopes make: an ancestor's singleton built afresh with the child's
    /// registrations). For the test and preview scopes, which name it.
    package func child(singletons: ChildSingletons) -> DependencyInjector {
        DependencyInjector(parent: self, singletons: singletons)
    }
}
