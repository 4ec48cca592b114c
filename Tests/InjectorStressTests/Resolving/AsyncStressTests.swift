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

    /// The child tasks of one factory run transients through its resolver at once, each chain
    /// resolving through a captured injector midway: every captured resolve finds its own
    /// task's path among its siblings' (the cycle each child reports names its own keys).
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)  // `.timeLimit` takes a `Duration`
    @Test(.timeLimit(.minutes(1))) func siblingTasksResolvingThroughOneRunEachFindTheirOwnPath() async throws {
        let injector = AsyncDependencyInjector()
        let children = 8
        let step: @Sendable (String) -> DependencyKey = { DependencyKey(Int.self, name: $0) }
        for child in 0..<children {
            await injector.register(Int.self, name: "a\(child)") { r in try await r.resolve(name: "b\(child)") }
            await injector.register(Int.self, name: "b\(child)") { _ in
                await Task.yield()
                return try await injector.resolve(name: "c\(child)")  // captured, not `r`
            }
            await injector.register(Int.self, name: "c\(child)") { r in
                await Task.yield()
                return try await r.resolve(name: "a\(child)")
            }
        }
        await injector.register([[DependencyKey]].self) { (r: AsyncResolver) async -> [[DependencyKey]] in
            await withTaskGroup(of: [DependencyKey].self) { group in
                for child in 0..<children {
                    group.addTask {
                        do {
                            _ = try await r.resolve(Int.self, name: "a\(child)")
                            return []
                        } catch InjectionError.circularDependency(let path) {
                            return path
                        } catch {
                            return []
                        }
                    }
                }
                return await group.reduce(into: []) { $0.append($1) }
            }
        }
        let wrong = Collected<String>()
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<50 {
                group.addTask {
                    guard let paths = try? await injector.resolve([[DependencyKey]].self) else {
                        return wrong.append("the resolve failed")
                    }
                    for path in paths {
                        let child = path.dropFirst().first?.name?.dropFirst() ?? "?"
                        let expected =
                            [DependencyKey([[DependencyKey]].self)]
                            + ["a", "b", "c", "a"].map { step($0 + child) }
                        if path != expected { wrong.append("\(path)") }
                    }
                    if paths.count != children { wrong.append("\(paths.count) paths") }
                }
            }
        }
        #expect(wrong.values.isEmpty, "\(wrong.values.prefix(3))")
    }
}

private struct KeyFailure: Error {
    let key: Int
}
