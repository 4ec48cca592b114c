import Foundation
import Injector

/// `--check-async-memory [levels] [limit MB]`: the peak resident memory a chain of async
/// singletons (10,000 by default) adds while it resolves on the actor face, each level's
/// factory awaiting the next level's resolve, so every level's task and frames are alive at
/// the deepest point. Prints the total and the bytes per level; returns `false` above the
/// limit, so CI fails if a level starts keeping much more. 100 MB by default: 88 MB now,
/// 76 MB after issue 40. Growth to 143 MB went unseen while the peak was read as
/// `ru_maxrss`, which under `swift run` began at the `swift` process's own (see
/// `peakResidentBytes()`); most of it was a run inlined into the walk's frames.
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

/// The process's peak resident set so far, in bytes: on Linux this program's own (`VmHWM`),
/// not `ru_maxrss`, which `execve` keeps: run by `swift run`, it began at the peak of the
/// `swift` process that started it, which hid about 100 MB of the chain's; elsewhere
/// `ru_maxrss` (bytes on Apple platforms).
private func peakResidentBytes() -> Int {
    #if os(Linux)
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
            let kilobytes = Int(line.split(separator: " ").dropFirst().first ?? "")
        else { return 0 }
        return kilobytes << 10
    #else
        var usage = rusage()
        guard getrusage(RUSAGE_SELF, &usage) == 0 else { return 0 }
        return Int(usage.ru_maxrss)
    #endif
}
