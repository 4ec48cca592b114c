import Foundation
import Injector

/// `--check-depth`: how deep a chain of factories (each resolving the next) gets on a 512 KB
/// thread, the stack of every secondary thread and dispatch worker on Apple platforms, before
/// the injector refuses with `resolutionTooDeep`. Prints the depths and whether they meet the
/// release-build targets (1,000 transients, 500 singletons); returns `false` if not, so CI
/// fails. Not a timing: it runs here because this target is the one built for release.
func checkDepth() -> Bool {
    let targets: [(scope: Scope, levels: Int)] = [(.transient, 1_000), (.singleton, 500)]
    var met = true
    for (scope, target) in targets {
        let reached = levelsOn512KBThread(scope: scope)
        let verdict = reached >= target ? "met" : "MISSED"
        print("\(scope) chain on a 512 KB thread: \(reached) levels (target ≥ \(target): \(verdict))")
        met = met && reached >= target
    }
    return met
}

/// The levels of a 20,000-deep chain that resolve on a 512 KB thread: all of them, or as
/// many as the path of the `resolutionTooDeep` error holds.
private func levelsOn512KBThread(scope: Scope) -> Int {
    let depth = 20_000
    let injector = DependencyInjector()
    for level in 0..<depth {
        let next = level + 1 < depth ? "\(level + 1)" : nil
        injector.register(Int.self, name: "\(level)", scope: scope) { r in
            guard let next else { return level }
            return try r.resolve(Int.self, name: next)
        }
    }
    let reached = BaselineLocked(0)
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
        do throws(InjectionError) {
            _ = try injector.resolve(Int.self, name: "0")
            reached.withLock { $0 = depth }
        } catch {
            if case .resolutionTooDeep(let path, _) = error { reached.withLock { $0 = path.count - 1 } }
        }
        done.signal()
    }
    thread.stackSize = 512 << 10
    thread.start()
    done.wait()
    return reached.withLock { $0 }
}
