/// One row of the table: an operation timed in batches, or a value derived from other rows.
struct BenchmarkCase {
    enum Body {
        /// `run(n, clock)` performs `n` iterations, each of `operations` operations, and
        /// returns the nanoseconds they took on `clock` (what it times: see the constructors).
        case measured(operations: Int, clock: Clock, run: (Int, Clock) -> UInt64)
        /// Computed, batch by batch, from the ns/op of the other cases of the same scenario.
        case derived(([String: Double]) -> Double)
    }

    let name: String
    /// The case of the same scenario that the ratio column divides by; `nil` for a baseline.
    let baseline: String?
    /// What the issue asks of this case, shown next to the ratio; never asserted.
    let target: Target?
    let body: Body

    /// A row measured by running `run(n)`, which performs `n` iterations of `operations` each.
    static func measured(
        _ name: String, baseline: String? = nil, target: Target? = nil, operations: Int = 1,
        clock: Clock = .threadCPU, run: @escaping (Int) -> Void
    ) -> BenchmarkCase {
        BenchmarkCase(
            name: name, baseline: baseline, target: target,
            body: .measured(operations: operations, clock: clock) { n, clock in
                let start = clock.now()
                run(n)
                return clock.now() - start
            }
        )
    }

    /// A row whose every iteration needs a fresh state that costs far more than what is timed
    /// (an injector with 100,000 registrations, for its first resolve): `setUp()` runs before
    /// each iteration, untimed, and the state is released after it, untimed too. At most
    /// `iterations` run per batch, however many the calibration asks for (it counts only the
    /// timed part), and their time is scaled to the count asked.
    static func measured<State>(
        _ name: String, baseline: String? = nil, target: Target? = nil, clock: Clock = .threadCPU,
        iterations: Int, setUp: @escaping () -> State, run: @escaping (State) -> Void
    ) -> BenchmarkCase {
        BenchmarkCase(
            name: name, baseline: baseline, target: target,
            body: .measured(operations: 1, clock: clock) { n, clock in
                let done = Swift.min(n, iterations)
                var elapsed: UInt64 = 0
                for _ in 0..<done {
                    let state = setUp()
                    let start = clock.now()
                    run(state)
                    elapsed += clock.now() - start
                    withExtendedLifetime(state) {}
                }
                return elapsed * UInt64(n) / UInt64(done)
            }
        )
    }

    /// A row computed from the other rows' ns/op in the same batch round.
    static func derived(
        _ name: String, baseline: String? = nil, target: Target? = nil,
        from compute: @escaping ([String: Double]) -> Double
    ) -> BenchmarkCase {
        BenchmarkCase(name: name, baseline: baseline, target: target, body: .derived(compute))
    }
}

/// What the issue sets for a case: its median over `reference`'s median at most `limit`, or,
/// with no reference, its median at most `limit` nanoseconds.
struct Target {
    let reference: String?
    let limit: Double

    init(reference: String, limit: Double) {
        self.reference = reference
        self.limit = limit
    }

    /// At most `nanoseconds` per operation, whatever the baselines cost.
    init(nanoseconds: Double) {
        reference = nil
        limit = nanoseconds
    }
}

/// A group of cases measured side by side: the baselines and the library doing the same work.
struct Scenario {
    let name: String
    let cases: [BenchmarkCase]
}

/// How long to measure.
struct Plan {
    /// Batches per case, taken round-robin across every case.
    var rounds: Int
    /// The wall-clock time one batch should take.
    var batchNanoseconds: UInt64

    static let full = Plan(rounds: 41, batchNanoseconds: 5_000_000)
    static let quick = Plan(rounds: 15, batchNanoseconds: 1_000_000)
}

/// One case's ns/op in every round, in round order.
struct Measurement {
    let scenario: String
    let benchmark: BenchmarkCase
    let samples: [Double]
}

/// Warms up and calibrates every measured case, then times `plan.rounds` batches per case,
/// round-robin across all of them, so that background load affects every case alike.
func measure(_ scenarios: [Scenario], plan: Plan) -> [Measurement] {
    var iterations: [[Int]] = scenarios.map { $0.cases.map { _ in 0 } }
    for (s, scenario) in scenarios.enumerated() {
        for (c, benchmark) in scenario.cases.enumerated() {
            guard case .measured(_, let clock, let run) = benchmark.body else { continue }
            // Wall-clock batches are kept short: on a busy machine, a batch the scheduler
            // interrupts is an outlier, and short ones are interrupted less often.
            let batch = clock == .wall ? plan.batchNanoseconds / 5 : plan.batchNanoseconds
            iterations[s][c] = calibrate(run, clock: clock, batchNanoseconds: batch)
        }
    }

    // samples[s][c][round] in ns/op
    var samples: [[[Double]]] = scenarios.map { $0.cases.map { _ in [] } }
    for _ in 0..<plan.rounds {
        for (s, scenario) in scenarios.enumerated() {
            var thisRound: [String: Double] = [:]
            for (c, benchmark) in scenario.cases.enumerated() {
                guard case .measured(let operations, let clock, let run) = benchmark.body else { continue }
                let count = iterations[s][c]
                let elapsed = run(count, clock)
                let nanosecondsPerOperation = Double(elapsed) / Double(count * operations)
                samples[s][c].append(nanosecondsPerOperation)
                thisRound[benchmark.name] = nanosecondsPerOperation
            }
            for (c, benchmark) in scenario.cases.enumerated() {
                guard case .derived(let compute) = benchmark.body else { continue }
                samples[s][c].append(compute(thisRound))
            }
        }
    }

    return scenarios.enumerated().flatMap { s, scenario in
        scenario.cases.enumerated().map { c, benchmark in
            Measurement(scenario: scenario.name, benchmark: benchmark, samples: samples[s][c])
        }
    }
}

/// The number of iterations that makes one batch of `run` last about `batchNanoseconds`,
/// found by doubling; the doubling runs double as the warm-up.
private func calibrate(_ run: (Int, Clock) -> UInt64, clock: Clock, batchNanoseconds: UInt64) -> Int {
    var count = 1
    while true {
        let elapsed = run(count, clock)
        if elapsed >= batchNanoseconds / 4 || count >= 1 << 30 {
            let perIteration = Double(elapsed) / Double(count)
            // One more full-length run as warm-up at the final size.
            let final = Swift.max(1, Int(Double(batchNanoseconds) / Swift.max(perIteration, 0.01)))
            _ = run(final, clock)
            return final
        }
        count *= 2
    }
}
