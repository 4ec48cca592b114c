import Injector
import TestSupport
import Testing

/// Modules contributing to one collection from many threads at once, while others resolve it:
/// no element is lost or doubled, and each resolve sees whole elements.
@Suite struct CollectionStressTests {
    struct Element: Sendable {
        let thread: Int
        let number: Int
    }

    @Test func contributionsFromEightThreadsWhileOthersResolveAreAllKeptOnce() {
        let app = DependencyInjector()
        app.declareCollection([Element].self)
        let contributors = 8
        let perThread = 50
        let seenCounts = Collected<Int>()
        runOnThreads(contributors + 2) { thread in
            guard thread < contributors else {
                // Readers: every resolve succeeds, with no more elements than were registered.
                for _ in 0..<200 {
                    if let all = try? app.resolve([Element].self) { seenCounts.append(all.count) }
                }
                return
            }
            for number in 0..<perThread {
                app.register(into: [Element].self) { _ in Element(thread: thread, number: number) }
            }
        }
        let all = (try? app.resolve([Element].self)) ?? []
        #expect(all.count == contributors * perThread)
        #expect(Set(all.map { "\($0.thread)-\($0.number)" }).count == contributors * perThread)
        // Each thread's elements keep the order that thread registered them in.
        for thread in 0..<contributors {
            #expect(all.filter { $0.thread == thread }.map(\.number) == Array(0..<perThread))
        }
        #expect(seenCounts.values.count == 400)
        #expect(seenCounts.values.allSatisfy { $0 <= contributors * perThread })
    }
}
