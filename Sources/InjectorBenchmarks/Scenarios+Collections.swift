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
            .measured("injector: resolve([any Plugin].self)", baseline: list) { n in
                for _ in 0..<n { blackHole(try? injector.resolve([any Plugin].self)) }
            },
        ]
    )
}
