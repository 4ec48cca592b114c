import Foundation
import Injector
import InjectorTesting
import TestSupport
import Testing

private final class Consumer: @unchecked Sendable {  // read-only after init
    @OptionalInject(name: "scope") var scope: String?
}

/// Where a test scope's injector reaches, and the documented fallback where it does not.
@Suite(.injecting { $0.register("test scope", name: "scope") })
struct PropagationTests {
    @Test func structuredTasksAndUnstructuredTasksSeeTheScope() async {
        async let fromAsyncLet = Consumer().scope
        let fromTask = await Task { Consumer().scope }.value
        let fromGroup = await withTaskGroup(of: String?.self) { group in
            group.addTask { Consumer().scope }
            return await group.next() ?? nil
        }
        #expect(await fromAsyncLet == "test scope")
        #expect(fromTask == "test scope")
        #expect(fromGroup == "test scope")
    }

    /// `shared` has no "scope" registration, so code that falls back to it sees `nil`.
    @Test func detachedTasksThreadsAndGCDFallBackToShared() async {
        let fromDetached = await Task.detached { Consumer().scope }.value
        let fromThread = Collected<String?>()
        runOnThreads(1) { _ in fromThread.append(Consumer().scope) }
        let fromQueue = Collected<String?>()
        let queued = DispatchGroup()
        DispatchQueue.global().async(group: queued) { fromQueue.append(Consumer().scope) }
        queued.wait()

        #expect(fromDetached == nil)
        #expect(fromThread.values == [nil])
        #expect(fromQueue.values == [nil])
    }

    @Test func objectsBuiltInsideKeepTheirInjectorWhenUsedElsewhere() async {
        let consumer = Consumer()
        let fromDetached = await Task.detached { consumer.scope }.value
        #expect(fromDetached == "test scope")
    }
}

/// A straggler task started by one test must not affect another.
@Suite struct StragglerTests {
    @Test(.injecting())
    func aStragglerFromAFinishedScopeKeepsItsOwnInjector() async {
        let started = Counter()
        let straggler = DependencyInjector.current.withOverrides({ $0.register("first", name: "straggler") }) {
            Task {
                started.increment()
                try? await Task.sleep(nanoseconds: 10_000_000)
                return (try? DependencyInjector.resolve(String.self, name: "straggler")) ?? "none"
            }
        }
        // A second scope starts while the straggler still runs; neither sees the other.
        let second = DependencyInjector.current.withOverrides({ $0.register("second", name: "straggler") }) {
            (try? DependencyInjector.resolve(String.self, name: "straggler")) ?? "none"
        }
        #expect(second == "second")
        #expect(await straggler.value == "first")
        #expect(!DependencyInjector.current.isRegistered(String.self, name: "straggler"))
    }
}
