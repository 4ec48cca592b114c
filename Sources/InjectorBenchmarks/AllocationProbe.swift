import Injector

/// `--alloc-probe N [--baseline]`: resolves a ready singleton `N` times and does nothing else,
/// for counting from outside the process what one resolve costs.
///
/// Run it under valgrind with `N = 0` and with a large `N`, and subtract:
/// `valgrind --tool=dhat` gives the heap blocks (equal totals: the path allocates nothing),
/// `valgrind --tool=callgrind` the instructions and, per function, the calls (no `String`
/// function is called `N` times: the path builds no string). `--baseline` does the same with
/// the locked-dictionary baseline, for comparison.
func runAllocationProbe(_ count: Int, baseline: Bool) {
    if baseline {
        let registry = LockedDictionary()
        registry.register(Logger())
        for _ in 0..<count { blackHole(registry.resolve(Logger.self)) }
    } else {
        let injector = DependencyInjector()
        injector.register(Logger.self, scope: .singleton) { _ in Logger() }
        _ = try? injector.resolve(Logger.self)  // created before the probe: only the ready path is counted
        for _ in 0..<count { blackHole(try? injector.resolve(Logger.self)) }
    }
    print("resolved a ready singleton \(count) times\(baseline ? " from the baseline" : "")")
}
