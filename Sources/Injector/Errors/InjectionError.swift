/// Why a dependency could not be resolved.
///
/// Every resolving API throws it as a typed error, so `catch` sees an `InjectionError`
/// without casting, and each case can be matched on its own:
///
/// ```swift
/// do {
///     let payments = try injector.resolve(PaymentService.self)
/// } catch .notRegistered(let key, let path, _) {
///     print("missing \(key), needed by \(path)")
/// } catch {
///     print(error)  // a full sentence: what, the chain that led there, and how to fix it
/// }
/// ```
///
/// Every `path` runs from the outermost request to the key that failed, inclusive:
/// `[App, Checkout, PaymentService]` when `App`'s factory resolved `Checkout`, whose factory
/// resolved the missing `PaymentService`.
public indirect enum InjectionError: Error, Sendable {
    /// Nothing is registered for the key, in the injector or any of its ancestors.
    ///
    /// `suggestions` holds what the injector found that the caller probably meant. The `path`
    /// is empty for a ``DependencyInjector/reset(_:name:)``, which resolved nothing.
    case notRegistered(DependencyKey, path: [DependencyKey], suggestions: [Suggestion])

    /// Resolving the last key of `path` needs that same key again, through the factories in
    /// between: `[A, B, A]`. A key that needs itself gives `[A, A]`.
    case circularDependency(path: [DependencyKey])

    /// The key's factory, one of its decorators or its `initCompleted` hook threw `underlying`,
    /// an error of its own (an `InjectionError` passes through unchanged, so a missing
    /// dependency deep in the graph is reported as ``notRegistered(_:path:suggestions:)`` with
    /// the whole path); a `CancellationError` when the resolve was cancelled.
    case factoryFailed(DependencyKey, path: [DependencyKey], underlying: any Error)

    /// The key's factory takes run-time arguments of the `expected` types (module-qualified
    /// names, as the platform names them: `FoundationEssentials.UUID` on Linux), but the
    /// resolve passed the `given` types (either list may be empty).
    ///
    /// ```swift
    /// injector.register(UserSession.self) { (r, userID: UUID) in UserSession(id: userID) }
    /// try injector.resolve(UserSession.self, arguments: "42")  // expected [Foundation.UUID], given [Swift.String]
    /// ```
    case argumentMismatch(DependencyKey, path: [DependencyKey], expected: [String], given: [String])

    /// The key's factory runs on the main actor (see
    /// ``MainActorRegistrar/register(_:name:scope:fileID:line:factory:)``), and it was resolved
    /// from another thread, where it cannot run without `await`.
    case requiresMainActor(DependencyKey, path: [DependencyKey])

    /// The chain of factories in `path` is too deep for the thread's stack (of `stackSize`
    /// bytes): the last key's factory was not run, since less than 64 KB was left. Nothing was
    /// cached; on a thread with a larger stack the resolve may succeed. Checked before each
    /// factory, so a deep graph ends here, not in a crash. Async factories never throw it.
    ///
    /// ```swift
    /// let thread = Thread { resolveEverything() }
    /// thread.stackSize = 4 << 20  // instead of the 512 KB of a secondary thread
    /// ```
    case resolutionTooDeep(path: [DependencyKey], stackSize: Int)

    /// A registration or removal of the key was refused because the injector is sealed
    /// (see ``DependencyInjector/seal()``). The existing registration is intact.
    case sealed(DependencyKey)

    /// The key forwards to `implementation`'s registration (``Registered/implements(_:)``),
    /// but the value that registration made is not of the key's type.
    ///
    /// ```swift
    /// injector.register(Stripe.self) { _ in Stripe() }.implements(Refunds.self)
    /// try injector.resolve(Refunds.self)  // Stripe does not conform to Refunds
    /// ```
    case notImplemented(DependencyKey, path: [DependencyKey], implementation: DependencyKey)

    /// A strict test scope refused the key's registration: it is the app's (made above the
    /// scope, at `registeredAt`), the test did not provide its own, and it is neither allowed
    /// in tests nor has a test double. The failure is also recorded on the running test (in
    /// any Swift Testing test or XCTest case whose process links `InjectorTesting`), at the
    /// registration's line, so that code which swallows the error
    /// does not hide it; a test that then throws it is reported once, and an `@Inject` of an
    /// object made by hand that asked for the key records it at its own declaration instead.
    ///
    /// ```swift
    /// @Suite(.injecting(.strict(app: registerServices))) struct CheckoutTests {
    ///     @Test func pays() throws {
    ///         _ = try DependencyInjector.current.resolve(PaymentService.self)  // throws: no stub
    ///     }
    /// }
    /// ```
    case notProvidedInTest(DependencyKey, path: [DependencyKey], registeredAt: RegistrationSite)

    /// The key is registered with ``Scope/scoped`` (one value per opened scope), and the
    /// resolve did not run in a scope that ``DependencyInjector/openScope(fileID:filePath:line:)`` opened (or a test
    /// scope).
    ///
    /// ```swift
    /// app.register(Transaction.self, scope: .scoped) { _ in Transaction() }
    /// try app.resolve(Transaction.self)              // throws: outsideScope
    /// try app.openScope().resolve(Transaction.self)  // a Transaction of that scope
    /// ```
    case outsideScope(DependencyKey, path: [DependencyKey])

    /// A value that outlives opened scopes (`holder`, of `holderScope`: a singleton, an eager
    /// singleton, a weak instance, a named scope's value, or a value cached per argument tuple,
    /// whose `holderScope` is the named scope `caching: .strong`, `.strong(limit: n)` or
    /// `.weak`, as registered) asked for the key, which is
    /// ``Scope/scoped``: it would keep one scope's value after that scope ends. Reported by
    /// the resolve and by `verify()`, wherever the holder is built (in a test scope too).
    ///
    /// ```swift
    /// app.register(AuditLog.self, scope: .singleton) { r in try AuditLog(tx: r.resolve()) }
    /// app.register(Transaction.self, scope: .scoped) { _ in Transaction() }
    /// try app.openScope().resolve(AuditLog.self)  // throws: captiveDependency
    /// ```
    case captiveDependency(DependencyKey, path: [DependencyKey], holder: DependencyKey, holderScope: Scope)

    /// The key is declared as a value that each opened scope provides
    /// (``DependencyInjector/declareScoped(_:name:fileID:line:)``, at `declaredAt`), and the
    /// scope the resolve ran in did not register one. `verify()` does not report it: each
    /// scope provides its own.
    case notProvidedByScope(DependencyKey, path: [DependencyKey], declaredAt: RegistrationSite)

    /// The injector that would keep the key's value has been closed
    /// (``DependencyInjector/close()``): it keeps and builds nothing more, so no factory ran
    /// for this resolve. (A value a factory was already making when the close began was torn
    /// down at once.)
    ///
    /// ```swift
    /// try request.close()
    /// try request.resolve(Transaction.self)  // throws: closed
    /// ```
    case closed(DependencyKey, path: [DependencyKey])

    /// ``DependencyInjector/reset(_:)`` was asked to reset a scope that keeps nothing to
    /// reset (``Scope/transient``, ``Scope/graph``), or a named scope that no registration in
    /// the injector or its ancestors uses (often a typo).
    case unknownScope(Scope)

    /// ``DependencyInjector/reset(_:name:)`` was asked to reset a key whose registration keeps
    /// no value: a registered instance (`scope` is `nil`), or a factory whose scope makes a new
    /// value on each resolve (``Scope/transient``, ``Scope/graph``).
    ///
    /// ```swift
    /// injector.register(Clock.self) { _ in SystemClock() }  // transient
    /// try injector.reset(Clock.self)  // throws: notResettable
    /// ```
    case notResettable(DependencyKey, scope: Scope?)

    /// The key whose resolution failed: the last element of ``path``, or the refused key.
    public var key: DependencyKey? {
        switch self {
        case .sealed(let key), .notResettable(let key, _): key
        case .unknownScope: nil
        default: path.last
        }
    }

    /// This error with the key at `index` of its path marked as requested through `property`.
    func requested(through property: InjectedProperty, at index: Int) -> InjectionError {
        withPath { path in
            if path.indices.contains(index) { path[index] = path[index].requested(through: property) }
        }
    }

    /// This error, made by a synchronous factory that the actor face ran, with `outer` (the
    /// keys the actor face was resolving around it, which that factory's thread did not see)
    /// first in its path, unless they are there already.
    func after(_ outer: [DependencyKey]) -> InjectionError {
        guard !outer.isEmpty else { return self }
        return withPath { path in
            if !path.starts(with: outer) { path.insert(contentsOf: outer, at: 0) }
        }
    }

    /// This error after `change` to its path (a case without one is returned as it is).
    func withPath(_ change: (inout [DependencyKey]) -> Void) -> InjectionError {
        switch self {
        case .notRegistered(let key, var path, let suggestions):
            change(&path)
            return .notRegistered(key, path: path, suggestions: suggestions)
        case .circularDependency(var path):
            change(&path)
            return .circularDependency(path: path)
        case .factoryFailed(let key, var path, let underlying):
            change(&path)
            return .factoryFailed(key, path: path, underlying: underlying)
        case .argumentMismatch(let key, var path, let expected, let given):
            change(&path)
            return .argumentMismatch(key, path: path, expected: expected, given: given)
        case .requiresMainActor(let key, var path):
            change(&path)
            return .requiresMainActor(key, path: path)
        case .resolutionTooDeep(var path, let stackSize):
            change(&path)
            return .resolutionTooDeep(path: path, stackSize: stackSize)
        case .notImplemented(let key, var path, let implementation):
            change(&path)
            return .notImplemented(key, path: path, implementation: implementation)
        case .notProvidedInTest(let key, var path, let site):
            change(&path)
            return .notProvidedInTest(key, path: path, registeredAt: site)
        case .outsideScope(let key, var path):
            change(&path)
            return .outsideScope(key, path: path)
        case .captiveDependency(let key, var path, let holder, let holderScope):
            change(&path)
            return .captiveDependency(key, path: path, holder: holder, holderScope: holderScope)
        case .notProvidedByScope(let key, var path, let site):
            change(&path)
            return .notProvidedByScope(key, path: path, declaredAt: site)
        case .closed(let key, var path):
            change(&path)
            return .closed(key, path: path)
        case .sealed, .unknownScope, .notResettable:
            return self
        }
    }

    /// The chain of resolutions that led to the failure, outermost first.
    public var path: [DependencyKey] {
        switch self {
        case .notRegistered(_, let path, _), .circularDependency(let path), .factoryFailed(_, let path, _),
            .argumentMismatch(_, let path, _, _), .requiresMainActor(_, let path), .resolutionTooDeep(let path, _),
            .notImplemented(_, let path, _), .notProvidedInTest(_, let path, _), .outsideScope(_, let path),
            .captiveDependency(_, let path, _, _), .notProvidedByScope(_, let path, _), .closed(_, let path):
            path
        case .sealed, .unknownScope, .notResettable:
            []
        }
    }
}

extension InjectionError {
    /// Whether a task's cancellation made the resolve fail: a factory (or a wait) that threw
    /// `CancellationError`. Not inlined: its size known only at run time (a resilient type),
    /// the cast's `CancellationError` is a task allocation at each entry of an async function
    /// that holds it (`AsyncDependencyInjector.produce`, where a wait's check is inlined).
    @inline(never)
    var isCancellation: Bool {
        guard case .factoryFailed(_, _, let underlying) = self else { return false }
        return underlying is CancellationError
    }
}
