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
    /// The resolves run in a throw-away child that builds its own copy of every singleton, so
    /// this injector's singletons (and its ancestors') are not created, and its state is left
    /// as it was, except that the dependencies seen are recorded for ``graph()``. Each key is
    /// resolved once: this injector's registrations and those it inherits.
    ///
    /// What it cannot see:
    /// - factories that take run-time arguments (`register(_:name:factory:)` with arguments):
    ///   they are skipped, since only their callers know the arguments;
    /// - main-actor factories (``register(_:name:scope:mainActorFactory:)``) and the factories
    ///   that resolve them, unless `verify()` is called on the main actor;
    /// - dependencies a factory does not resolve while it runs: `@LazyInject` properties,
    ///   resolves inside methods, resolves with names computed at run time, branches of a
    ///   factory that this run does not take;
    /// - registrations made after it returns, and overrides in children of this injector;
    /// - resolves through an injector a factory captured instead of the one it is given (those
    ///   reach the real injector, and may create its singletons).
    ///
    /// > Important: Every factory runs, once per resolve: side effects of factories (opening
    /// > files or connections) happen, and the values are dropped when `verify` returns.
    ///
    /// - Throws: ``VerificationError`` listing every failure.
    public func verify() throws(VerificationError) {
        let scratch = child(singletons: .own)
        var verification = Verification(of: self, in: scratch)
        for key in verification.keys {
            do {
                _ = try scratch.value(for: key)
            } catch {
                verification.record(error, resolving: key)
            }
        }
        try verification.finish()
    }
}

/// One run of `verify()`, for either face: which keys to resolve in `scratch`, a child that
/// keeps its own singletons, what the failures mean, and the report. Only the resolving is
/// the face's own (the actor awaits async factories).
struct Verification {
    /// The keys to resolve once each: every factory registration the injector can resolve
    /// (an instance needs nothing).
    let keys: [DependencyKey]
    private let injector: DependencyInjector
    private let scratch: DependencyInjector
    private let registrationCount: Int
    private var failures = Failures()

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

    /// Notes that resolving `key` threw `error`.
    mutating func record(_ error: InjectionError, resolving key: DependencyKey) {
        switch error {
        case .argumentMismatch(key, [key], _, []):
            return  // a factory that takes run-time arguments: only its callers can run it
        case .requiresMainActor:
            // A main-actor factory, or one that resolves it, and this is not the main actor:
            // it cannot run here, which says nothing about whether it works.
            return
        default:
            failures.add(error)
        }
    }

    /// Keeps the edges the resolves recorded for the injector's `graph()`, and throws every
    /// failure recorded.
    func finish() throws(VerificationError) {
        let edges = scratch.registry.withLock { $0.diagnostics.edges }
        injector.registry.withLock { $0.diagnostics.edges.formUnion(edges) }
        guard failures.list.isEmpty else {
            throw VerificationError(failures: failures.list, registrationCount: registrationCount)
        }
    }
}

/// Failures collected by `verify()`, one per cause, each with the longest path seen for it.
private struct Failures {
    private(set) var list: [InjectionError] = []
    private var indexByCause: [Cause: Int] = [:]

    private enum Cause: Hashable {
        case missing(DependencyKey)
        case failing(DependencyKey)
        case cycle(Set<DependencyKey>)
        /// The graph is deeper than the thread's stack allows, wherever it ran out.
        case tooDeep
    }

    mutating func add(_ error: InjectionError) {
        let cause = Self.cause(of: error)
        guard let index = indexByCause[cause] else {
            indexByCause[cause] = list.count
            list.append(error)
            return
        }
        if error.path.count > list[index].path.count { list[index] = error }
    }

    private static func cause(of error: InjectionError) -> Cause {
        switch error {
        case .notRegistered(let key, _, _):
            return .missing(key)
        case .factoryFailed(let key, _, _), .argumentMismatch(let key, _, _, _), .requiresMainActor(let key, _),
            .sealed(let key):
            return .failing(key)
        case .resolutionTooDeep:
            return .tooDeep
        case .circularDependency(let path):
            // `[X, A, B, A]` and `[B, A, B]` are the same cycle: {A, B}.
            guard let last = path.last, let start = path.firstIndex(of: last) else { return .cycle([]) }
            return .cycle(Set(path[start...]))
        }
    }
}
