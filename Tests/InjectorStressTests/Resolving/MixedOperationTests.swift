import Injector
import TestSupport
import Testing

/// Eight threads doing everything at once to one injector.
@Suite struct MixedOperationTests {
    @Test func eightThreadsMixingEveryOperationKeepTheInjectorConsistent() throws {
        let injector = DependencyInjector()
        injector.register(Probe(id: -1), name: "stable")
        let violations = Collected<String>()

        runOnThreads(8) { thread in
            // Each thread owns the names "t<thread>-<k>", so it can predict them exactly,
            // and shares the names "shared-<k>" with every other thread.
            var own: [String: Int] = [:]
            var random = SeededGenerator(seed: UInt64(thread))
            for step in 0..<3_000 {
                let ownName = "t\(thread)-\(Int.random(in: 0..<8, using: &random))"
                let sharedName = "shared-\(Int.random(in: 0..<4, using: &random))"
                switch Int.random(in: 0..<7, using: &random) {
                case 0:
                    injector.register(Int.self, name: ownName, scope: .singleton) { _ in step }
                    own[ownName] = step
                case 1:
                    injector.unregister(Int.self, name: ownName)
                    own[ownName] = nil
                case 2:
                    let resolved = try? injector.resolve(Int.self, name: ownName)
                    if resolved != own[ownName] { violations.append("\(ownName): \(String(describing: resolved))") }
                case 3:
                    injector.register(Probe(id: step), name: sharedName)
                case 4:
                    // A shared name holds some thread's probe, or nothing: never a torn value.
                    do {
                        _ = try injector.resolve(Probe.self, name: sharedName).id
                    } catch InjectionError.notRegistered {
                    } catch {
                        violations.append("\(sharedName): \(error)")
                    }
                case 5:
                    // A child override is local to the child.
                    let child = injector.child()
                    child.register(Probe(id: step), name: "stable")
                    if (try? child.resolve(Probe.self, name: "stable"))?.id != step {
                        violations.append("child override lost")
                    }
                default:
                    injector.withOverrides({ $0.register(step, name: ownName) }) {
                        if (try? DependencyInjector.resolve(Int.self, name: ownName)) != step {
                            violations.append("override lost")
                        }
                    }
                }
            }
        }

        #expect(violations.values.isEmpty, "\(violations.values.prefix(5))")
        #expect(try injector.resolve(Probe.self, name: "stable").id == -1)  // no child leaked into it
        // Consistency afterwards: registering and resolving still work for every name.
        for thread in 0..<8 {
            for k in 0..<8 {
                injector.register(thread * 100 + k, name: "t\(thread)-\(k)")
                #expect(try injector.resolve(Int.self, name: "t\(thread)-\(k)") == thread * 100 + k)
            }
        }
    }
}
