import Dispatch
import Injector

/// Every scenario, in table order. Each entry builds its own injectors and baselines, so a
/// new scenario is one more function and one more line here.
func allScenarios() -> [Scenario] {
    [
        readySingleton(),
        transientWithThreeDependencies(),
        namedLookup(),
        threadsResolvingOneSingleton(2),
        threadsResolvingOneSingleton(4),
        threadsResolvingOneSingleton(8),
        registerTenThousand(),
        writesUnderReaders(),
        firstResolveAfterRegistrations(),
        childFallThrough(),
        requestScope(),
        appSingletonThroughAScope(),
        collectionOfTenElements(),
        decoratedResolve(),
        injectThreeProperties(),
        resolveObjectWithThreeWrappers(),
        lazyInjectReads(),
        wrapperReads(),
        asyncReadySingleton(),
        asyncFactories(),
        observationHook(),
        diagnosticsAtScale(),
        firstMissAmongManyNames(),
    ]
}

private let lockedDictionary = "locked dictionary"

/// A singleton that has already been created: the path `@Inject` takes most often.
func readySingleton() -> Scenario {
    let baseline = LockedDictionary()
    baseline.register(Logger())
    let injector = DependencyInjector()
    injector.register(Logger.self, scope: .singleton) { _ in Logger() }
    _ = try? injector.resolve(Logger.self)  // created now, so every timed resolve finds it ready
    let instances = DependencyInjector()
    instances.register(Logger())
    let stored = Logger()

    return Scenario(
        name: "ready singleton",
        cases: [
            .measured("direct: a stored reference", baseline: lockedDictionary) { n in
                for _ in 0..<n { blackHole(stored) }
            },
            .measured(lockedDictionary) { n in
                for _ in 0..<n { blackHole(baseline.resolve(Logger.self)) }
            },
            .measured(
                "injector, .singleton factory", baseline: lockedDictionary,
                target: Target(reference: lockedDictionary, limit: 0.4)
            ) { n in
                for _ in 0..<n { blackHole(try? injector.resolve(Logger.self)) }
            },
            .measured(
                "injector, registered instance", baseline: lockedDictionary,
                target: Target(reference: lockedDictionary, limit: 0.4)
            ) { n in
                for _ in 0..<n { blackHole(try? instances.resolve(Logger.self)) }
            },
        ]
    )
}

/// `Importer(parser:formatter:validator:)`, all four transient.
///
/// The baseline keeps the four factories in a locked `[ObjectIdentifier: factory]`; each
/// resolve takes its factory out under the lock, calls it outside, and casts with `as? T`, and
/// the `Importer` factory resolves its three dependencies the same way. It has no scopes, no
/// cycle detection, no resolution path and no errors, which the injector pays for.
func transientWithThreeDependencies() -> Scenario {
    let baseline = LockedFactories()
    baseline.register(Parser.self) { _ in Parser() }
    baseline.register(Formatter.self) { _ in Formatter() }
    baseline.register(Validator.self) { _ in Validator() }
    baseline.register(Importer.self) { r in
        Importer(
            parser: r.resolve() ?? Parser(), formatter: r.resolve() ?? Formatter(),
            validator: r.resolve() ?? Validator())
    }
    let injector = importerInjector()
    let factories = "locked factories"
    let busy = injectorUsingEveryLifetime()

    return Scenario(
        name: "transient, 3 transient deps",
        cases: [
            .measured("direct: Importer(Parser(), …)", baseline: factories) { n in
                for _ in 0..<n { blackHole(Importer(parser: Parser(), formatter: Formatter(), validator: Validator())) }
            },
            .measured(factories) { n in
                for _ in 0..<n { blackHole(baseline.resolve(Importer.self)) }
            },
            .measured("injector", baseline: factories, target: Target(reference: factories, limit: 1.7)) { n in
                for _ in 0..<n { blackHole(try? injector.resolve(Importer.self)) }
            },
            // The same graph in an app whose other lifetimes are in use: what keeps their values
            // must cost the transients nothing (a weak reference to the injector once made every
            // retain of it slow: 10% on this row).
            .measured(
                "injector, its other lifetimes in use", baseline: "injector",
                target: Target(reference: "injector", limit: 1.1)
            ) { n in
                for _ in 0..<n { blackHole(try? busy.resolve(Importer.self)) }
            },
            // As the property wrappers resolve: from `current`, already bound to the injector,
            // so no resolve has to bind it for its factory (the row above binds it each time).
            .measured("injector, already `current`", baseline: factories) { n in
                DependencyInjector.$current.withValue(injector) {
                    for _ in 0..<n { blackHole(try? injector.resolve(Importer.self)) }
                }
            },
        ]
    )
}

/// An injector with `Importer`'s graph: four transients.
private func importerInjector() -> DependencyInjector {
    let injector = DependencyInjector()
    injector.register(Parser.self) { _ in Parser() }
    injector.register(Formatter.self) { _ in Formatter() }
    injector.register(Validator.self) { _ in Validator() }
    injector.register(Importer.self) { r in
        try Importer(parser: r.resolve(), formatter: r.resolve(), validator: r.resolve())
    }
    return injector
}

/// `Importer`'s graph in an injector that has also cached a value by argument, kept scoped
/// values in a scope (closed since) and copies of its singleton in a test scope.
private func injectorUsingEveryLifetime() -> DependencyInjector {
    let injector = importerInjector()
    injector.register(Logger.self, name: "by tenant", caching: .strong) { (_, _: Int) in Logger() }
    injector.register(Logger.self, name: "per request", scope: .scoped) { _ in Logger() }
    injector.register(Logger.self, scope: .singleton) { _ in Logger() }
    _ = try? injector.resolve(Logger.self, name: "by tenant", arguments: 1)
    let request = injector.openScope()
    _ = try? request.resolve(Logger.self, name: "per request")
    try? request.close()
    let test = injector.previewScope()
    _ = try? test.resolve(Logger.self)
    try? test.close()
    return injector
}

/// `resolve(String.self, name:)` of a registered value, among 1 or 100,000 named entries,
/// against the unnamed `resolve(String.self)` of a registered value.
func namedLookup() -> Scenario {
    let names = (0..<100_000).map { "setting-\($0)" }
    let wanted = names[names.count / 2]
    let smallBaseline = NamedLockedDictionary()
    smallBaseline.register("value", name: wanted)
    let largeBaseline = NamedLockedDictionary()
    for name in names { largeBaseline.register("value", name: name) }
    let unnamed = DependencyInjector()
    unnamed.register("value")
    let small = DependencyInjector()
    small.register("value", name: wanted)
    let large = DependencyInjector()
    for name in names { large.register("value", name: name) }
    // Published once, as the first read after registering does (a one-off cost not timed).
    _ = try? unnamed.resolve(String.self)
    _ = try? small.resolve(String.self, name: wanted)
    _ = try? large.resolve(String.self, name: wanted)
    let oneEntry = "locked dictionary, 1 entry"
    let manyEntries = "locked dictionary, 100,000 entries"
    let injectorUnnamed = "injector, unnamed"

    return Scenario(
        name: "named lookup",
        cases: [
            .measured(oneEntry) { n in
                for _ in 0..<n { blackHole(smallBaseline.resolve(String.self, name: wanted)) }
            },
            .measured(manyEntries, baseline: oneEntry) { n in
                for _ in 0..<n { blackHole(largeBaseline.resolve(String.self, name: wanted)) }
            },
            .measured(injectorUnnamed, baseline: oneEntry) { n in
                for _ in 0..<n { blackHole(try? unnamed.resolve(String.self)) }
            },
            .measured(
                "injector, 1 entry", baseline: oneEntry, target: Target(reference: injectorUnnamed, limit: 1.3)
            ) { n in
                for _ in 0..<n { blackHole(try? small.resolve(String.self, name: wanted)) }
            },
            .measured(
                "injector, 100,000 entries", baseline: manyEntries,
                target: Target(reference: injectorUnnamed, limit: 1.3)
            ) { n in
                for _ in 0..<n { blackHole(try? large.resolve(String.self, name: wanted)) }
            },
        ]
    )
}

/// `threads` threads resolving the same ready singleton at once; ns/op is wall time over the
/// resolves of all threads, so it is the inverse of the combined throughput. The floor is
/// the same object read from a stored reference on every thread: the retain and release of
/// one shared object, which no container can avoid. More threads than cores oversubscribe.
func threadsResolvingOneSingleton(_ threads: Int) -> Scenario {
    let baseline = LockedDictionary()
    baseline.register(Logger())
    let injector = DependencyInjector()
    injector.register(Logger.self, scope: .singleton) { _ in Logger() }
    _ = try? injector.resolve(Logger.self)
    let stored = SharedReference((try? injector.resolve(Logger.self)) ?? Logger())
    let baselineName = "locked dictionary, \(threads) threads"
    let floor = "direct: a stored reference, \(threads) threads"
    let injectorName = "injector, \(threads) threads"
    let lazy = DependencyInjector.$current.withValue(injector) { SharedLazyScreen() }
    _ = lazy.logger

    return Scenario(
        name: "\(threads) threads, same singleton",
        cases: [
            .measured(floor, baseline: baselineName, operations: threads, clock: .wall) { n in
                DispatchQueue.concurrentPerform(iterations: threads) { _ in
                    for _ in 0..<n { blackHole(stored.read()) }
                }
            },
            .measured(baselineName, operations: threads, clock: .wall) { n in
                DispatchQueue.concurrentPerform(iterations: threads) { _ in
                    for _ in 0..<n { blackHole(baseline.resolve(Logger.self)) }
                }
            },
            .measured(
                injectorName, baseline: baselineName, target: Target(reference: baselineName, limit: 0.35),
                operations: threads, clock: .wall
            ) { n in
                DispatchQueue.concurrentPerform(iterations: threads) { _ in
                    for _ in 0..<n { blackHole(try? injector.resolve(Logger.self)) }
                }
            },
            .measured(
                "@LazyInject later read, \(threads) threads", baseline: baselineName, operations: threads, clock: .wall
            ) { n in
                DispatchQueue.concurrentPerform(iterations: threads) { _ in
                    for _ in 0..<n { blackHole(lazy.logger) }
                }
            },
            // The same row again, against the floor: what the injector adds to the shared retain.
            .derived(
                "\(injectorName), against the floor", baseline: floor
            ) {
                $0[injectorName, default: 0]
            },
        ]
    )
}

/// A `@LazyInject` property that several threads read. `@unchecked Sendable`: only read, and
/// the wrapper's state is the library's (locked, or atomic).
final class SharedLazyScreen: @unchecked Sendable {
    @LazyInject var logger: Logger
}

/// One object every thread reads, each read an owned reference (a retain, and a release when
/// the reader drops it), as a resolve returns one: the floor for threads sharing a singleton.
final class SharedReference: Sendable {
    let object: Logger

    init(_ object: Logger) {
        self.object = object
    }

    /// The object, retained for the caller. Not optimised: with `@inline(never)` alone, the
    /// optimiser returned it unretained (a specialisation returning a borrowed reference), and
    /// the floor counted no reference-count traffic at all.
    @inline(never) @_optimize(none)
    func read() -> Logger {
        object
    }
}

/// 10,000 named `.singleton` factory registrations into a new injector (ns/op is per
/// registration; creating and releasing the injector is included, spread over the 10,000).
func registerTenThousand() -> Scenario {
    let names = (0..<10_000).map { "service-\($0)" }
    let baselineName = "locked dictionary"

    return Scenario(
        name: "register 10,000",
        cases: [
            .measured(baselineName, operations: names.count) { n in
                for _ in 0..<n {
                    let registry = NamedLockedDictionary()
                    for name in names {
                        registry.register({ Logger() } as @Sendable () -> Logger, name: name)
                    }
                    blackHole(registry)
                }
            },
            .measured(
                "injector", baseline: baselineName, target: Target(reference: baselineName, limit: 2.0),
                operations: names.count
            ) { n in
                for _ in 0..<n {
                    let injector = DependencyInjector()
                    for name in names {
                        injector.register(Logger.self, name: name, scope: .singleton) { _ in Logger() }
                    }
                    blackHole(injector)
                }
            },
        ]
    )
}

/// A ready singleton registered in the root, resolved from the root itself, from a child and
/// from a child five levels down. Every child holds one unrelated registration of its own.
func childFallThrough() -> Scenario {
    let root = LockedDictionary()
    root.register(Logger())
    var chain = [root]
    let injectorRoot = DependencyInjector()
    injectorRoot.register(Logger.self, scope: .singleton) { _ in Logger() }
    _ = try? injectorRoot.resolve(Logger.self)
    var injectors = [injectorRoot]
    for level in 1...5 {
        let registry = LockedDictionary(parent: chain[level - 1])
        registry.register(level)
        chain.append(registry)
        let injector = injectors[level - 1].child()
        injector.register(level)
        injectors.append(injector)
    }
    let (chain1, chain5, injector1, injector5) = (chain[1], chain[5], injectors[1], injectors[5])

    return Scenario(
        name: "child fall-through",
        cases: [
            .measured("chain, own") { n in
                for _ in 0..<n { blackHole(root.resolve(Logger.self)) }
            },
            .measured("chain, 1 parent") { n in
                for _ in 0..<n { blackHole(chain1.resolve(Logger.self)) }
            },
            .measured("chain, 5 parents") { n in
                for _ in 0..<n { blackHole(chain5.resolve(Logger.self)) }
            },
            .measured("injector, own", baseline: "chain, own") { n in
                for _ in 0..<n { blackHole(try? injectorRoot.resolve(Logger.self)) }
            },
            .measured("injector, 1 parent", baseline: "chain, 1 parent") { n in
                for _ in 0..<n { blackHole(try? injector1.resolve(Logger.self)) }
            },
            .measured("injector, 5 parents", baseline: "chain, 5 parents") { n in
                for _ in 0..<n { blackHole(try? injector5.resolve(Logger.self)) }
            },
            // A level of the walk, from 1 parent to 5: the injector's own value is read from its
            // published table without a lock, so "own" is no level of the walk (see 1st level).
            .derived("chain, per level (1→5)") {
                ($0["chain, 5 parents", default: 0] - $0["chain, 1 parent", default: 0]) / 4
            },
            .derived("injector, 1st level (0→1)", baseline: "chain, per level (1→5)") {
                $0["injector, 1 parent", default: 0] - $0["injector, own", default: 0]
            },
            .derived(
                "injector, per level (1→5)", baseline: "chain, per level (1→5)",
                target: Target(reference: "chain, per level (1→5)", limit: 1.2)
            ) { ($0["injector, 5 parents", default: 0] - $0["injector, 1 parent", default: 0]) / 4 },
        ]
    )
}
