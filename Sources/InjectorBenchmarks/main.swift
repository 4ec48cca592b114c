import Foundation

// Measures the injector against in-process baselines and prints one Markdown table.
//
//     swift run -c release InjectorBenchmarks           # the full run (about ten seconds)
//     swift run -c release InjectorBenchmarks --quick   # about a second: a smoke test for CI
//     swift run -c release InjectorBenchmarks --filter singleton   # only matching scenarios
//     InjectorBenchmarks --run "<scenario>" "<case>" 100000   # one case alone, for valgrind
//     swift run -c release InjectorBenchmarks --check-depth   # chain depth on 512 KB; exit 1 if short
//     InjectorBenchmarks --check-async-memory [levels] [MB]   # a deep async chain's peak memory; exit 1 if over
//
// Timings are noisy on a shared machine; compare ratios within one run, not across runs.

let arguments = Array(CommandLine.arguments.dropFirst())

if arguments.contains("--check-depth") {
    if !checkDepth() { exit(1) }
} else if let flag = arguments.firstIndex(of: "--check-async-memory") {
    let numbers = arguments.dropFirst(flag + 1).compactMap { Int($0) }
    if !checkAsyncChainMemory(levels: numbers.first ?? 10_000, limitMB: numbers.dropFirst().first ?? 100) { exit(1) }
} else if let flag = arguments.firstIndex(of: "--run"), arguments.count >= flag + 4 {
    let count = Int(arguments[flag + 3]) ?? 0
    runCase(scenario: arguments[flag + 1], case: arguments[flag + 2], iterations: count)
} else {
    let plan: Plan = arguments.contains("--quick") ? .quick : .full
    print(
        "Injector benchmarks: \(plan.rounds) rounds, one batch of ~\(plan.batchNanoseconds / 1_000_000) ms per case each,"
            + " \(ProcessInfo.processInfo.activeProcessorCount) cores"
    )
    print("")
    let filter = arguments.firstIndex(of: "--filter").flatMap { arguments.dropFirst($0 + 1).first }
    let scenarios = allScenarios().filter { scenario in filter.map { scenario.name.contains($0) } ?? true }
    print(table(measure(scenarios, plan: plan)))
}
