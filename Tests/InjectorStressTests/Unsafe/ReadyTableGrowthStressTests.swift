import Injector
import Synchronization
import TestSupport
import Testing

/// The published table changed in place (issue 31): insertions into it, removals from it, and
/// the larger copies that replace it when it fills, all while readers read it without a lock.
/// Run under the thread sanitizer in CI.
@Suite struct ReadyTableGrowthStressTests {
    /// A user relies on a resolve racing registrations of other keys, and the unregistration
    /// and re-registration of its own, returning the value registered for its key or, in the
    /// gap, `notRegistered`: never another key's value, never a freed one. (Catches: a slot read
    /// before it is whole, an entry of a replaced table read after it was freed, a removed
    /// entry's owner released while a reader is inside.)
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)  // `Atomic`
    @Test func readersWhileTheTableGrowsAndLosesEntriesSeeOnlyTheirOwnValues() {
        let injector = DependencyInjector()
        let early = 32
        for index in 0..<early { injector.register("value \(index)", name: "early \(index)") }
        let writersDone = Atomic<Int>(0)
        let problems = Collected<String>()

        runOnThreads(4) { [unowned injector] thread in
            switch thread {
            case 0:
                // Grows the table, in place and by copies, far past its first size.
                for index in 0..<4_000 { injector.register("late \(index)", name: "late \(index)") }
                writersDone.add(1, ordering: .releasing)
            case 1:
                // Removes and puts back early entries: tombstones, then insertions.
                for round in 0..<2_000 {
                    let index = round % early
                    injector.unregister(String.self, name: "early \(index)")
                    injector.register("value \(index)", name: "early \(index)")
                }
                writersDone.add(1, ordering: .releasing)
            default:
                var found: [String] = []
                var reads = 0
                while writersDone.load(ordering: .acquiring) < 2 || reads < 20_000 {
                    let index = reads % early
                    reads += 1
                    do throws(InjectionError) {
                        let value = try injector.resolve(String.self, name: "early \(index)")
                        if value != "value \(index)" { found.append("early \(index) read \(value)") }
                    } catch {
                        guard case .notRegistered = error else {
                            found.append("early \(index) failed: \(error)")
                            continue
                        }
                    }
                }
                for problem in found.prefix(5) { problems.append(problem) }
            }
        }

        #expect(problems.values.isEmpty, "\(problems.values)")
        for index in stride(from: 0, to: 4_000, by: 97) {
            #expect((try? injector.resolve(String.self, name: "late \(index)")) == "late \(index)")
        }
        for index in 0..<early {
            #expect((try? injector.resolve(String.self, name: "early \(index)")) == "value \(index)")
        }
    }
}
