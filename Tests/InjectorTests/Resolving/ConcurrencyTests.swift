import Foundation
import Injector
import Testing

/// Concurrency claims, proven under `swift test --sanitize=thread` in CI.
@Suite struct ConcurrencyTests {
    @Test func sixteenThreadsRacingToTheFirstResolveRunTheFactoryOnce() throws {
        for _ in 0..<20 {
            let injector = DependencyInjector()
            let calls = Counter()
            injector.register(Service.self, scope: .singleton) { _ in
                calls.increment()
                usleep(1_000)  // keeps the creation in flight while the other threads arrive
                return Service()
            }
            let results = Collected<Service?>()
            runOnThreads(16) { _ in results.append(try? injector.resolve(Service.self)) }

            #expect(calls.value == 1)
            let instances = results.values
            #expect(instances.count == 16)
            #expect(instances.allSatisfy { $0 != nil && $0 === instances.first ?? nil })
        }
    }

    @Test func racingFirstResolvesOfASingletonRunItsFactoryOnce() throws {
        for _ in 0..<20 {
            let injector = DependencyInjector()
            let made = Counter()
            injector.register(Service.self, scope: .singleton) { _ in
                made.increment()
                return Service()
            }
            let seen = Collected<ObjectIdentifier>()
            runOnThreads(4) { _ in
                if let service = try? injector.resolve(Service.self) { seen.append(ObjectIdentifier(service)) }
            }
            #expect(made.value == 1)
            #expect(Set(seen.values).count == 1)
            #expect(seen.values.count == 4)
        }
    }

    @Test func eightThreadsRegisteringResolvingAndUnregisteringStayConsistent() throws {
        let injector = DependencyInjector()
        let failures = Counter()
        injector.register(Service(label: "stable"))
        runOnThreads(8) { thread in
            for step in 0..<2_000 {
                let name = "key\(step % 16)"
                switch (thread + step) % 4 {
                case 0: injector.register(Int.self, name: name, scope: .singleton) { _ in step }
                case 1: injector.unregister(Int.self, name: name)
                case 2: _ = try? injector.resolve(Int.self, name: name)
                default:
                    // A key nobody touches must always resolve to its value.
                    if (try? injector.resolve(Service.self))?.label != "stable" { failures.increment() }
                }
            }
        }
        #expect(failures.value == 0)
        #expect(try injector.resolve(Service.self).label == "stable")
    }

    @Test func aFactoryMayResolveFromAnotherThreadWhileItRuns() throws {
        let injector = DependencyInjector()
        injector.register(Service(label: "from another thread"))
        injector.register(Dependent.self, scope: .singleton) { r in
            let service = DispatchQueue.global().sync { try? r.resolve(Service.self) }
            return Dependent(service: service ?? Service(label: "missing"))
        }

        #expect(try injector.resolve(Dependent.self).service.label == "from another thread")
    }

    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)  // `.timeLimit` takes a `Duration`
    @Test(.timeLimit(.minutes(1)))
    func aCycleResolvedFromTwoThreadsAtOnceIsReportedNotDeadlocked() {
        for _ in 0..<20 {
            // Each factory's first run waits until the other has started, so that thread 0 is
            // creating A and thread 1 is creating B when each asks for the other's singleton.
            let aStarted = DispatchSemaphore(value: 0)
            let bStarted = DispatchSemaphore(value: 0)
            let aRuns = Counter()
            let bRuns = Counter()
            let injector = DependencyInjector()
            injector.register(NodeA.self, scope: .singleton) { r in
                if aRuns.increment() == 1 {
                    aStarted.signal()
                    bStarted.wait()
                }
                _ = try r.resolve(NodeB.self)
                return NodeA()
            }
            injector.register(NodeB.self, scope: .singleton) { r in
                if bRuns.increment() == 1 {
                    bStarted.signal()
                    aStarted.wait()
                }
                _ = try r.resolve(NodeA.self)
                return NodeB()
            }
            let paths = Collected<[String]>()
            runOnThreads(2) { thread in
                do {
                    if thread == 0 {
                        _ = try injector.resolve(NodeA.self)
                    } else {
                        _ = try injector.resolve(NodeB.self)
                    }
                } catch InjectionError.circularDependency(let path) {
                    paths.append(path.map { String(describing: $0.type) })
                } catch {}
            }
            #expect(paths.values.count == 2)
            #expect(paths.values.allSatisfy { $0.count == 3 && $0.first == $0.last })
        }
    }

    @Test func concurrentResolvesOfAnAcyclicChainFindNoFalseCycle() throws {
        let injector = DependencyInjector()
        injector.register(NodeC.self, scope: .singleton) { _ in
            usleep(200)
            return NodeC()
        }
        injector.register(NodeB.self, scope: .singleton) { r in
            _ = try r.resolve(NodeC.self)
            return NodeB()
        }
        injector.register(NodeA.self) { r in
            _ = try r.resolve(NodeB.self)
            return NodeA()
        }
        let failures = Counter()
        runOnThreads(8) { _ in
            for _ in 0..<100 where (try? injector.resolve(NodeA.self)) == nil { failures.increment() }
        }
        #expect(failures.value == 0)
    }
}
