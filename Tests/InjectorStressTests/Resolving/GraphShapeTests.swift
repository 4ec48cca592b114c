import Foundation
import Injector
import TestSupport
import Testing

/// Deep and wide graphs: no depth heuristic, no cost that grows with size.
@Suite struct GraphShapeTests {
    @Test func aThousandDeepChainResolvesOnAnEightMegabyteThread() {
        let injector = DependencyInjector()
        let depth = 1_000
        for level in 0..<depth {
            injector.register(Int.self, name: "\(level)", scope: level.isMultiple(of: 2) ? .transient : .singleton) {
                r in
                level == depth - 1 ? level : try r.resolve(Int.self, name: "\(level + 1)")
            }
        }
        let result = Collected<Int?>()
        runOnThreads(1) { _ in result.append(try? injector.resolve(Int.self, name: "0")) }
        #expect(result.values == [depth - 1])
    }

    @Test func aHundredThousandNamedRegistrationsAllResolve() throws {
        let injector = DependencyInjector()
        let count = 100_000
        for index in 0..<count { injector.register(index, name: "n\(index)") }

        var mismatches = 0
        for index in stride(from: 0, to: count, by: 7)
        where (try? injector.resolve(Int.self, name: "n\(index)")) != index {
            mismatches += 1
        }
        #expect(mismatches == 0)
        #expect(try injector.resolve(Int.self, name: "n\(count - 1)") == count - 1)
    }

    @Test func manyTransientResolvesAndRegisterCyclesLeaveNothingBehind() throws {
        let injector = DependencyInjector()
        injector.register(Probe.self) { _ in Probe() }
        weak var last: Probe?
        for _ in 0..<100_000 { last = try injector.resolve(Probe.self) }
        #expect(last == nil)  // transients are not kept

        for cycle in 0..<10_000 {
            injector.register(cycle, name: "cycling")
            injector.unregister(Int.self, name: "cycling")
        }
        #expect(!injector.isRegistered(Int.self, name: "cycling"))
        let error = #expect(throws: InjectionError.self) { try injector.resolve(String.self) }
        guard case .notRegistered(_, _, let suggestions) = error else {
            Issue.record("expected notRegistered, got \(String(describing: error))")
            return
        }
        #expect(suggestions.isEmpty)  // no leftover registrations to suggest
    }
}
