extension DependencyInjector {
    /// Resolves every registration once, off to the side, and reports every problem at once:
    /// missing registrations, cycles and failing factories, each with its resolution path.
    ///
    /// ```swift
    /// #if DEBUG
    /// try injector.verify()  // at start-up, or in one test
    /// #endif
    /// ```
    ///
    /// The resolves run in a throw-away child that builds its own copy of every singleton:
    /// this injector's (and its ancestors') are not created, and only the dependencies seen are
    /// recorded, for ``graph()``. Each key it can resolve, own or inherited, is resolved once.
    /// After ``close()`` it builds no value this injector would keep: each is reported `closed`.
    ///
    /// It sees the failures of the `@Inject` and `@OptionalInject` properties of the objects the
    /// factories build, with their paths. What it cannot see:
    /// - factories that take run-time arguments: skipped, only their callers know them (a
    ///   caller's resolve of one runs it, and what it asks for is checked: a ``Scope/scoped``
    ///   value it would keep is a captive dependency);
    /// - what a factory asks for after a value declared with
    ///   ``declareScoped(_:name:fileID:line:)``, which each opened scope provides and `verify()`
    ///   has none of: the declared value's resolve throws, and the factory stops there. Give the
    ///   declaration a stand-in (``Registered/inTests(fileID:line:_:)`` or
    ///   ``Registered/inPreviews(fileID:line:_:)``) and `verify()` resolves it with that, and
    ///   sees the rest;
    /// - main-actor factories (``MainActorRegistrar/register(_:name:scope:fileID:line:factory:)``) and the factories
    ///   that resolve them, unless `verify()` is called on the main actor;
    /// - async factories (registered through ``AsyncDependencyInjector``), which only the actor
    ///   face runs: its `verify()` checks them; a synchronous factory that needs one is reported;
    /// - dependencies a factory does not resolve while it runs: `@LazyInject` properties,
    ///   resolves inside methods or with names computed at run time, branches not taken;
    /// - registrations made after it returns, and overrides in children of this injector;
    /// - resolves through an injector a factory captured instead of the one it is given (those
    ///   reach the real injector, and may create its singletons).
    ///
    /// > Important: Every closure factory runs, once per resolve: side effects of factories
    /// > (opening files or connections) happen, and the values are dropped when `verify`
    /// > returns, their teardowns (``Registered/teardown(_:)``) run (one that throws is a problem
    /// > it reports). A registration made from an
    /// > initializer (``register(_:name:scope:fileID:line:initializer:)``) is checked without
    /// > calling the initializer: each of its parameters is resolved (or checked so, when it is
    /// > an initializer's too), unless a closure factory needs its value, or a decorator or an
    /// > `initCompleted` hook does.
    ///
    /// - Throws: ``VerificationError`` listing every failure.
    public func verify() throws(VerificationError) {
        let scratch = scratchScope()
        InitializerDryRun.verifying.increment()
        defer { InitializerDryRun.verifying.decrement() }
        var verification = Verification(of: self, in: scratch)
        for key in verification.keys {
            var failure: InjectionError?
            // The wrappers (`@Inject`, `@OptionalInject`) of the objects the factories build
            // report their failures here too: a factory that succeeds can build a broken object.
            var wrapperFailures: Verification.WrapperFailures
            repeat {
                wrapperFailures = Verification.WrapperFailures()
                // An initializer's registration is checked, not built (see `InitializerDryRun`).
                failure = Verification.$wrapperFailures.withValue(wrapperFailures) {
                    InitializerDryRun.$checkingDepths.withValue([InitializerDryRun.depth]) { () -> InjectionError? in
                        do throws(InjectionError) {
                            _ = try scratch.value(for: key)
                            return nil
                        } catch {
                            return error
                        }
                    }
                }
            } while verification.providesStandIn(after: failure)
            if let failure { verification.record(failure, resolving: key) }
            for failure in wrapperFailures.all { verification.record(failure, resolving: key) }
        }
        do {
            try scratch.close()  // what it created is torn down
        } catch {
            verification.teardownFailures = error.failures
        }
        try verification.finish()
    }
}

/// One run of `verify()`, for either face: the keys to resolve in `scratch` (a `.own` child),
/// what the failures mean, and the report. Only the resolving is the face's own.
struct Verification {
    /// While `verify()` (on either face) resolves a key: where the wrappers (`@Inject`,
    /// `@OptionalInject`) of the objects its factories build report their failures, which it
    /// reports as its own, on whichever thread the factories run. (A failed `@Inject` fails the
    /// factory's resolve too: see `ResolutionContext.capture`.)
    @TaskLocal static var wrapperFailures: WrapperFailures?

    /// The failures a run of `verify()` collects for one key.
    final class WrapperFailures: Sendable {
        private let failures = Locked<[InjectionError]>([])

        func append(_ failure: InjectionError) {
            failures.withLock { $0.append(failure) }
        }

        var all: [InjectionError] { failures.withLock { $0 } }
    }

    /// Every factory registration the injector can resolve (an instance needs nothing).
    let keys: [DependencyKey]
    private let injector: DependencyInjector
    private let scratch: DependencyInjector
    private let registrationCount: Int
    /// One failure per cause, each with the longest path seen for it.
    private var failures: [InjectionError] = []
    private var indexByCause: [Cause: Int] = [:]
    /// The teardowns that threw when the scratch scope closed.
    var teardownFailures: [TeardownError.Failure] = []

    /// The declared keys whose stand-ins the scratch scope was given (see `providesStandIn`).
    private var providedStandIns: Set<DependencyKey> = []

    init(of injector: DependencyInjector, in scratch: DependencyInjector) {
        // Instrumented without an observer: every edge is recorded, nothing is reported.
        let instrumentation = Instrumentation(observer: nil)
        scratch.registry.update { exchange(&$0.diagnostics.instrumentation, with: instrumentation) }
        let registrations = injector.registrations
        self.injector = injector
        self.scratch = scratch
        registrationCount = registrations.count
        keys = registrations.compactMap { info in
            guard case .factory = info.kind else { return nil }
            return info.key
        }
    }

    /// Whether the resolve that threw `error` is worth running again: it stopped at a value
    /// declared with `declareScoped`, which the scratch scope now provides with the
    /// declaration's stand-in (its test double, else its preview stand-in), so that the
    /// factory's resolves after it are checked too. Once per declared key: a declaration
    /// without a stand-in stops the factory (see `verify()`).
    mutating func providesStandIn(after error: InjectionError?) -> Bool {
        guard case .notProvidedByScope(let declared, _, _)? = error, providedStandIns.insert(declared).inserted,
            case .factory(let declaration, _)? = injector.lookup(declared)?.entry
        else { return false }
        let standIn: Registration? =
            switch declaration.inTests {
            case .double(let double)?: double
            case .allowed?, nil: declaration.inPreviews
            }
        guard let standIn else { return false }
        // Stored in the scratch scope, which opens a scope: kept there, as a scope's own value.
        scratch.store(scope: standIn.scope, site: standIn.site) { _, _ in standIn }
        return true
    }

    /// Notes that resolving `key` threw `error`.
    mutating func record(_ error: InjectionError, resolving key: DependencyKey) {
        switch error {
        case .argumentMismatch(key, [key], _, []):
            return  // a factory that takes run-time arguments: only its callers can run it
        case .requiresMainActor:
            // Off the main actor, which says nothing about whether it works: a synchronous
            // factory that needs a main-actor value works where the app resolves it on the main
            // actor, or once the value (a singleton) exists, which `verify()` cannot see.
            return
        case .factoryFailed(key, [key], let underlying) where underlying is RequiresAwait:
            return  // an async factory, which only the actor face runs: its `verify()` checks it
        case .notProvidedByScope:
            return  // each opened scope provides it: there is none to resolve here
        case _ where InitializerDryRun.isChecked(error, key: key):
            return  // an initializer whose parameters resolved, checked without being called
        default:
            let cause = Self.cause(of: error)
            guard let index = indexByCause[cause] else {
                indexByCause[cause] = failures.count
                failures.append(error)
                return
            }
            if error.path.count > failures[index].path.count { failures[index] = error }
        }
    }

    /// Keeps the edges recorded for the injector's `graph()`, and throws the failures.
    func finish() throws(VerificationError) {
        let edges = scratch.registry.withLock { $0.diagnostics.edges }
        injector.registry.withLock { $0.diagnostics.edges.formUnion(edges) }
        guard failures.isEmpty, teardownFailures.isEmpty else {
            throw VerificationError(
                failures: failures, registrationCount: registrationCount, teardownFailures: teardownFailures)
        }
    }

    private enum Cause: Hashable {
        case missing(DependencyKey)
        case failing(DependencyKey)
        /// Resolved wrongly by its caller (arguments it does not take, an async factory without
        /// an await): each caller's mistake is one of its own.
        case calledWrongly(DependencyKey, caller: DependencyKey?)
        case captive(DependencyKey, holder: DependencyKey)
        case cycle(Set<DependencyKey>)
        /// The graph is deeper than the thread's stack allows, wherever it ran out.
        case tooDeep
    }

    private static func cause(of error: InjectionError) -> Cause {
        switch error {
        case .notRegistered(let key, _, _):
            return .missing(key)
        case .argumentMismatch(let key, let path, _, _):
            return .calledWrongly(key, caller: path.dropLast().last)
        case .factoryFailed(let key, let path, let underlying) where underlying is RequiresAwait:
            return .calledWrongly(key, caller: path.dropLast().last)
        case .factoryFailed(let key, _, _), .requiresMainActor(let key, _),
            .sealed(let key), .notImplemented(let key, _, _), .notProvidedInTest(let key, _, _),
            .outsideScope(let key, _), .notProvidedByScope(let key, _, _), .closed(let key, _),
            .notResettable(let key, _):
            return .failing(key)
        case .captiveDependency(let key, _, let holder, _):
            return .captive(key, holder: holder)
        case .resolutionTooDeep, .unknownScope:
            return .tooDeep
        case .circularDependency(let path):
            // `[X, A, B, A]` and `[B, A, B]` are the same cycle: {A, B}.
            guard let last = path.last, let start = path.firstIndex(of: last) else { return .cycle([]) }
            return .cycle(Set(path[start...]))
        }
    }
}
