/// `--run "<scenario>" "<case>" N`: runs one measured case for `N` iterations and nothing
/// else, for counting what it costs from outside the process.
///
/// Every scenario is set up first, as in a timed run; the iterations run inside
/// `runIterations`, so that `valgrind --tool=callgrind --toggle-collect='*runIterations*'`
/// counts them alone: the instructions per iteration of any case, the library's and its
/// baseline's alike (a case with a set-up per iteration counts its set-up too). Under
/// `valgrind --tool=dhat`, equal heap totals for a small and a large `N` show that the case
/// allocates nothing per iteration.
func runCase(scenario scenarioName: String, case caseName: String, iterations: Int) {
    let scenario = allScenarios().first { $0.name == scenarioName }
    guard let benchmark = scenario?.cases.first(where: { $0.name == caseName }),
        case .measured(_, _, let run) = benchmark.body
    else {
        print("no measured case \"\(caseName)\" in a scenario \"\(scenarioName)\"")
        return
    }
    runIterations(run, iterations)
    print("ran \"\(scenarioName)\" / \"\(caseName)\" \(iterations) times")
}

@inline(never)
private func runIterations(_ run: (Int, Clock) -> UInt64, _ iterations: Int) {
    _ = run(iterations, .threadCPU)
}
