import Injector

/// The first resolve after N registrations, timed alone (each iteration registers into a new
/// injector first, untimed): half named instances, half named transients, all of which a
/// published table holds. The baseline builds a dictionary of N entries, the least work any
/// table of them takes; the targets are the issue's, in time.
func firstResolveAfterRegistrations() -> Scenario {
    // Each with the target, and how many set-ups a batch can afford.
    let counts = [
        (1_000, "1,000", 10_000.0, 64), (10_000, "10,000", 100_000.0, 16), (100_000, "100,000", 1_000_000.0, 2),
    ]
    return Scenario(
        name: "first resolve after N registrations",
        cases: counts.flatMap { count, label, limit, iterations in
            let names = (0..<count).map { "service-\($0)" }
            let asked = names[count / 2]
            let baseline = "dictionary of \(label) built"
            return [
                BenchmarkCase.measured(baseline, iterations: iterations, setUp: { names }) { names in
                    var dictionary: [String: Logger] = [:]
                    dictionary.reserveCapacity(names.count)
                    for name in names { dictionary[name] = Logger() }
                    blackHole(dictionary[asked])
                },
                .measured(
                    "injector, \(label)", baseline: baseline, target: Target(nanoseconds: limit),
                    iterations: iterations,
                    setUp: {
                        let injector = DependencyInjector()
                        for (index, name) in names.enumerated() {
                            if index.isMultiple(of: 2) {
                                injector.register(Logger(), name: name)
                            } else {
                                injector.register(Logger.self, name: name) { _ in Logger() }
                            }
                        }
                        return injector
                    }
                ) { injector in
                    blackHole(try? injector.resolve(Logger.self, name: asked))
                },
            ]
        }
    )
}
