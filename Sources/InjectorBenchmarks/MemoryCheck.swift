import Foundation
import Injector

/// `--check-async-memory [levels] [limit MB]`: the peak resident memory a chain of async
/// singletons (10,000 by default) adds while it resolves on the actor face, each level's
/// factory awaiting the next level's resolve, so every level's task and frames are alive at
/// the deepest point. Prints the total and the bytes per level; returns `false` above the
/// limit (100 MB by default: 74–76 MB after issue 40), so CI fails if a level starts keeping much more.
/// Not a timing: a high-water mark, about the same on any load and in either build.
func checkAsyncChainMemory(levels: Int, limitMB: Int) -> Bool {
    let injector = AsyncDependencyInjector()
    // The peak before the resolve, and what the resolve gave.
    let outcome = BaselineLocked<(before: Int, result: Result<Int, InjectionError>)?>(nil)
    let done = DispatchSemaphore(value: 0)
    Task {
        for level in 0..<levels {
            let next = level + 1 < levels ? "\(level + 1)" : nil
            await injector.register(Int.self, name: "\(level)", scope: .singleton) { r in
                guard let next else { return level }
                return try await r.resolve(Int.self, name: next)
            }
        }
        let before = peakResidentBytes()
        let result: Result<Int, InjectionError>
        do throws(InjectionError) {
            result = .success(try await injector.resolve(Int.self, name: "0"))
        } catch {
            result = .failure(error)
        }
        outcome.withLock { $0 = (before, result) }
        done.signal()
    }
    done.wait()
    let (before, result) = outcome.withLock { $0 } ?? (0, .success(-1))
    guard case .success(levels - 1) = result else {
        print("async singleton chain of \(levels) levels did not resolve: \(result)")
        return false
    }
    let added = max(peakResidentBytes() - before, 0)
    let met = added <= limitMB << 20
    print(
        "async singleton chain of \(levels) levels: peak resident memory +\(added >> 20) MB,"
            + " \(added / levels) bytes a level (guard ≤ \(limitMB) MB: \(met ? "met" : "MISSED"))"
    )
    return met
}

/// The process's peak resident set so far, in bytes (`ru_maxrss` is kilobytes on Linux,
/// bytes on Apple platforms).
private func peakResidentBytes() -> Int {
    var usage = rusage()
    #if os(Linux)
        guard getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage) == 0 else { return 0 }
        return Int(usage.ru_maxrss) << 10
    #else
        guard getrusage(RUSAGE_SELF, &usage) == 0 else { return 0 }
        return Int(usage.ru_maxrss)
    #endif
}
