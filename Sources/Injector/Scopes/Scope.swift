/// How long a registered factory's product lives.
///
/// ```swift
/// injector.register(Database.self, scope: .singleton) { _ in try Database.open() }
/// injector.register(Session.self, scope: .weak) { _ in Session() }
/// injector.register(Request.self) { _ in Request() }  // .transient
/// ```
///
/// An instance registered with ``DependencyInjector/register(_:as:name:fileID:line:)`` is a created singleton.
public enum Scope: Hashable, Sendable, CustomStringConvertible {
    /// A new value on every resolve. The default.
    case transient
    /// Created on the first resolve, then kept by the injector that holds the registration
    /// while it lives (or until the key is registered again or unregistered). The factory runs
    /// exactly once even when the first resolves race; if it throws, the next resolve retries.
    case singleton
    /// Shared while something else holds a strong reference to it; created again after the
    /// last owner lets go. Only class instances can be held weakly: others are ``transient``.
    case weak
    /// A singleton that ``DependencyInjector/install(_:)-(DependencyModule...)`` creates as soon
    /// as its modules are registered, so that a failing factory is reported at start-up (as in
    /// Guice's production stage). Registered outside `install`, it behaves as ``singleton``.
    case eagerSingleton
    /// One value per resolve: while one top-level resolve builds its graph, every request for
    /// the key gets the same value; the next top-level resolve gets a new one. A screen's view
    /// model, presenter and interactor share one router this way, without making it a
    /// singleton (Swinject's and Resolver's `.graph`).
    ///
    /// ```swift
    /// injector.register(Router.self, scope: .graph) { _ in Router() }
    /// injector.register(Presenter.self) { r in try Presenter(router: r.resolve()) }
    /// injector.register(Screen.self) { r in try Screen(router: r.resolve(), presenter: r.resolve()) }
    /// let screen = try injector.resolve(Screen.self)  // screen.router === screen.presenter.router
    /// ```
    ///
    /// Resolved at the top level (not from a factory), it is a new value each time.
    case graph
    /// A scope of your own: kept like a ``singleton`` until
    /// ``DependencyInjector/reset(_:)`` drops what it keeps, such as a user session from login
    /// to logout.
    ///
    /// ```swift
    /// extension Scope {
    ///     static let session = Scope.named("session")
    /// }
    /// injector.register(Cart.self, scope: .session) { _ in Cart() }
    /// try injector.reset(.session)  // on logout: the next resolve builds a new Cart
    /// ```
    case named(String)
    /// One value per opened scope: created on the first resolve inside a scope that
    /// ``DependencyInjector/openScope(fileID:filePath:line:)`` opened (a request, a job, a test scope), shared by
    /// every resolve in that scope and its children, and torn down when the scope is closed.
    /// Registered once, at the root: no registration code runs per request.
    ///
    /// ```swift
    /// app.register(Transaction.self, scope: .scoped) { r in try Transaction(db: r.resolve()) }
    /// let request = app.openScope()
    /// let a = try request.resolve(Transaction.self)
    /// let b = try request.child().resolve(Transaction.self)  // a === b: one per request
    /// try request.close()
    /// ```
    ///
    /// A scoped value resolved outside any opened scope throws
    /// ``InjectionError/outsideScope(_:path:)``. A singleton (or weak, eager or named-scope
    /// value) of an enclosing injector that would keep one throws
    /// ``InjectionError/captiveDependency(_:path:holder:holderScope:)``: it would outlive the scope.
    case scoped

    /// The scope's name as written in code: `transient`, `singleton`, `weak`, `eagerSingleton`,
    /// `graph` or `scoped`; a named scope's name.
    public var description: String {
        switch self {
        case .transient: "transient"
        case .singleton: "singleton"
        case .weak: "weak"
        case .eagerSingleton: "eagerSingleton"
        case .graph: "graph"
        case .named(let name): name
        case .scoped: "scoped"
        }
    }

    /// Whether the injector keeps what the scope's factory makes, for later resolves.
    var isKept: Bool {
        switch self {
        case .transient, .graph: false
        case .singleton, .weak, .eagerSingleton, .named, .scoped: true
        }
    }

    /// Whether the injector keeps what the scope's factory makes with a strong reference: the
    /// values it tears down (see `PendingTeardown`).
    var isKeptStrongly: Bool {
        switch self {
        case .singleton, .eagerSingleton, .named, .scoped: true
        case .transient, .graph, .weak: false
        }
    }

    /// Whether a value of this scope may outlive an opened scope, so that keeping a
    /// ``scoped`` value in it is a captive dependency.
    var outlivesOpenedScopes: Bool {
        switch self {
        case .singleton, .weak, .eagerSingleton, .named: true
        case .transient, .graph, .scoped: false
        }
    }
}
