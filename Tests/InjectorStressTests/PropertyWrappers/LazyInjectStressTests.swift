import Injector
import TestSupport
import Testing

/// A `@LazyInject` property's later reads, which take no lock where `Synchronization` is
/// available, against assignments that replace the kept value, on real threads.
@Suite struct LazyInjectStressTests {
    private static let readsPerReader = 100_000
    private static let assignments = 5_000

    /// An object whose `@LazyInject` property the threads read and assign.
    private final class Owner: @unchecked Sendable {
        // `@unchecked Sendable`: the wrapper's state is the library's, shared and locked or
        // atomic; the object itself is never mutated (the setter is nonmutating).
        @LazyInject var value: Tracked

        init(injector: DependencyInjector) {
            _value = LazyInject(injector: injector)
        }
    }

    /// A user relies on a read racing assignments returning a whole value that was assigned
    /// (or the one resolved first), never an older one than it has already read, the last one
    /// once the assignment has returned, and on every replaced value being released. (Catches:
    /// a read of a box released by an assignment, a replaced box never released.)
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)  // `Atomic`, in the fixtures
    @Test func readersRacingAssignmentsSeeAssignedValuesInOrderAndFreeThemAll() {
        let ledger = Ledger()
        let findings = Findings()
        let assignments = Self.assignments
        do {
            let injector = DependencyInjector()
            injector.register(Tracked.self) { _ in Tracked(id: 0, ledger: ledger) }
            let owner = Owner(injector: injector)
            let writerDone = Flag()

            runOnThreads(4) { [unowned owner] thread in
                guard thread > 0 else {
                    var writer = Reader(valid: 0...assignments)
                    for id in 1...assignments {
                        owner.value = Tracked(id: id, ledger: ledger)
                        writer.check(last: id) { owner.value }
                    }
                    writerDone.raise()
                    findings.add(writer)
                    return
                }
                var reader = Reader(valid: 0...assignments)
                for _ in 0..<Self.readsPerReader {
                    let settled = writerDone.isRaised
                    reader.check(last: settled ? assignments : nil) { owner.value }
                }
                findings.add(reader)
            }
            #expect(owner.value.id == assignments)
        }
        #expect(findings.problems.isEmpty, "\(findings.problems.prefix(5))")
        #expect(findings.reads == 3 * Self.readsPerReader + assignments)
        #expect(ledger.born == ledger.died, "\(ledger.born - ledger.died) values outlived the property")
        #expect(ledger.born >= assignments)
    }
}
