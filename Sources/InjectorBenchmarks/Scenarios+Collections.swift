import Injector

/// An element of the collection below: a plugin, made anew for each resolve.
protocol Plugin: Sendable {}
final class NumberedPlugin: Plugin {
    let number: Int
    init(number: Int) { self.number = number }
}

/// What a collection of services is by hand: a locked list of factories, each module
/// appending its own, called in order on each resolve (the list copied out under the lock).
final class LockedPluginList: Sendable {
    private let factories = BaselineLocked<[@Sendable () -> any Plugin]>([])

    func append(_ factory: @escaping @Sendable () -> any Plugin) {
        factories.withLock { $0.append(factory) }
    }

    func all() -> [any Plugin] {
        factories.withLock { $0 }.map { $0() }
    }
}

/// `resolve([any Plugin].self)` of a collection of 10 transient elements, each registered on
/// its own (`register(into:)`), against the same by hand and against the array built directly.
func collectionOfTenElements() -> Scenario {
    let byHand = LockedPluginList()
    let injector = DependencyInjector()
    for number in 0..<10 {
        byHand.append { NumberedPlugin(number: number) }
        injector.register(into: [any Plugin].self) { _ in NumberedPlugin(number: number) }
    }
    let list = "by hand: a locked list of 10 factories"
    return Scenario(
        name: "collection of 10 elements",
        cases: [
            .measured("direct: an array of 10", baseline: list) { n in
                for _ in 0..<n { blackHole((0..<10).map { NumberedPlugin(number: $0) as any Plugin }) }
            },
            .measured(list) { n in
                for _ in 0..<n { blackHole(byHand.all()) }
            },
            // The target issue 41 sets.
            .measured("injector: resolve([any Plugin].self)", baseline: list, target: Target(reference: list, limit: 3))
            { n in
                for _ in 0..<n { blackHole(try? injector.resolve([any Plugin].self)) }
            },
        ]
    )
}

/// The service the decorated-resolve rows wrap.
protocol Fetching: Sendable {}
final class LiveFetcher: Fetching {}
final class RetryingFetcher: Fetching {
    let inner: any Fetching
    init(_ inner: any Fetching) { self.inner = inner }
}

/// A transient `any Fetching` wrapped by one decorator (`decorate`), against the same wrapped
/// by hand (a locked factory whose value is wrapped), and against the undecorated resolve; a
/// decorated singleton is decorated once, so its ready resolve is the plain one.
func decoratedResolve() -> Scenario {
    let byHand = BaselineLocked<[ObjectIdentifier: @Sendable () -> any Fetching]>([:])
    byHand.withLock { $0[ObjectIdentifier((any Fetching).self)] = { LiveFetcher() } }
    let plain = DependencyInjector()
    plain.register((any Fetching).self) { _ in LiveFetcher() }
    let decorated = DependencyInjector()
    decorated.register((any Fetching).self) { _ in LiveFetcher() }
    decorated.decorate((any Fetching).self) { _, inner in RetryingFetcher(inner) }
    let singleton = DependencyInjector()
    singleton.register((any Fetching).self, scope: .singleton) { _ in LiveFetcher() }
    singleton.decorate((any Fetching).self) { _, inner in RetryingFetcher(inner) }
    _ = try? singleton.resolve((any Fetching).self)
    let baseline = "by hand: a locked factory, its value wrapped"
    let undecorated = "injector: transient, no decorator"
    return Scenario(
        name: "decorated resolve",
        cases: [
            .measured(baseline) { n in
                for _ in 0..<n {
                    let make = byHand.withLock { $0[ObjectIdentifier((any Fetching).self)] }
                    blackHole(make.map { RetryingFetcher($0()) })
                }
            },
            .measured(undecorated, baseline: baseline) { n in
                for _ in 0..<n { blackHole(try? plain.resolve((any Fetching).self)) }
            },
            // The target issue 41 sets: a decorator costs a third of the resolve it wraps at most.
            .measured(
                "injector: transient, 1 decorator", baseline: baseline,
                target: Target(reference: undecorated, limit: 1.3)
            ) { n in
                for _ in 0..<n { blackHole(try? decorated.resolve((any Fetching).self)) }
            },
            .measured("injector: decorated singleton, ready", baseline: baseline) { n in
                for _ in 0..<n { blackHole(try? singleton.resolve((any Fetching).self)) }
            },
        ]
    )
}
