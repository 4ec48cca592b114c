import Injector
import TestSupport
import Testing

/// The actor variant under load: many tasks, many keys, failures and cancellations at once.
@Suite
struct AsyncStressTests {
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)  // `.timeLimit` takes a `Duration`
    @Test(.timeLimit(.minutes(1))) func aThousandTasksResolvingFiftyKeysWithFailuresAndCancellations() async throws {
        let injector = AsyncDependencyInjector()
        let calls = (0..<50).map { _ in Counter() }
        for key in 0..<50 {
            await injector.register(Int.self, name: "k\(key)", scope: .singleton) { _ in
                calls[key].increment()
                try await Task.sleep(nanoseconds: 100_000)
                if key.isMultiple(of: 10) { throw KeyFailure(key: key) }
                return key * 1_000
            }
        }
        let wrong = Collected<String>()
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<1_000 {
                let cancelled = task.isMultiple(of: 7)
                group.addTask {
                    if cancelled { withUnsafeCurrentTask { $0?.cancel() } }
                    for step in 0..<5 {
                        let key = (task * 7 + step * 13) % 50
                        do {
                            let value = try await injector.resolve(Int.self, name: "k\(key)")
                            if value != key * 1_000 { wrong.append("k\(key) gave \(value)") }
                        } catch InjectionError.factoryFailed(_, _, let underlying) {
                            let expected = key.isMultiple(of: 10) || (cancelled && underlying is CancellationError)
                            if !expected { wrong.append("k\(key) failed: \(underlying)") }
                        } catch {
                            wrong.append("k\(key): \(error)")
                        }
                    }
                }
            }
        }
        #expect(wrong.values.isEmpty, "\(wrong.values.prefix(5))")
        for key in 0..<50 where !key.isMultiple(of: 10) {
            #expect(calls[key].value == 1, "k\(key)'s factory ran \(calls[key].value) times")
        }
        // Nothing was poisoned: a healthy key resolves now, a failing one still fails.
        #expect(try await injector.resolve(Int.self, name: "k7") == 7_000)
        await #expect(throws: InjectionError.self) { try await injector.resolve(Int.self, name: "k10") }
    }
}

private struct KeyFailure: Error {
    let key: Int
}
