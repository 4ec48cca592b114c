import Foundation
import Injector
import TestSupport
import Testing

/// First-resolve races and contention: the failures other containers have shipped.
@Suite struct RaceTests {
    @Test func tenThousandColdResolvesFromEightTasksCreateOneSingletonRepeatedAHundredTimes() async {
        for _ in 0..<100 {
            let injector = DependencyInjector()
            let calls = Counter()
            injector.register(Probe.self, scope: .singleton) { _ in
                usleep(1_000)
                return Probe(id: calls.increment())
            }
            let ids = await withTaskGroup(of: Set<ObjectIdentifier>.self) { group in
                for _ in 0..<8 {
                    group.addTask {
                        var seen: Set<ObjectIdentifier> = []
                        for _ in 0..<1_250 {
                            if let probe = try? injector.resolve(Probe.self) { seen.insert(ObjectIdentifier(probe)) }
                        }
                        return seen
                    }
                }
                return await group.reduce(into: Set<ObjectIdentifier>()) { $0.formUnion($1) }
            }
            #expect(calls.value == 1)
            #expect(ids.count == 1)
        }
    }

    @Test func eightWaitersOnASlowSingletonAllGetTheSameInstance() {
        let injector = DependencyInjector()
        let calls = Counter()
        injector.register(Probe.self, scope: .singleton) { _ in
            usleep(500_000)
            return Probe(id: calls.increment())
        }
        let seen = Collected<ObjectIdentifier?>()
        runOnThreads(8) { _ in seen.append((try? injector.resolve(Probe.self)).map(ObjectIdentifier.init)) }

        #expect(calls.value == 1)
        #expect(Set(seen.values).count == 1)
        #expect(seen.values.allSatisfy { $0 != nil })
    }

    @Test func fiftyThreadsReadingALazyInjectForTheFirstTimeResolveOnce() {
        final class Holder: @unchecked Sendable {  // @LazyInject locks its own state
            @LazyInject var probe: Probe
        }
        for _ in 0..<10 {
            let injector = DependencyInjector()
            let calls = Counter()
            injector.register(Probe.self) { _ in
                usleep(1_000)
                return Probe(id: calls.increment())
            }
            let holder = DependencyInjector.$current.withValue(injector) { Holder() }
            let seen = Collected<Int>()
            runOnThreads(50) { _ in seen.append(holder.probe.id) }

            #expect(calls.value == 1)
            #expect(seen.values == Array(repeating: 1, count: 50))
        }
    }

    @Test func weakScopeRacesGiveOneLiveInstanceAtATime() {
        for _ in 0..<20 {
            let injector = DependencyInjector()
            let calls = Counter()
            injector.register(Probe.self, scope: .weak) { _ in Probe(id: calls.increment()) }
            let held = Collected<Probe>()
            runOnThreads(8) { thread in
                for step in 0..<200 {
                    guard let probe = try? injector.resolve(Probe.self) else { continue }
                    // Half the threads keep what they resolved; the others drop it at once,
                    // so the weak instance is released and re-created while others resolve.
                    if thread.isMultiple(of: 2) && step.isMultiple(of: 50) { held.append(probe) }
                }
            }
            // While some are held, a new resolve returns one of the held (live) instances.
            let live = Set(held.values.map(ObjectIdentifier.init))
            let current = (try? injector.resolve(Probe.self)).map(ObjectIdentifier.init)
            #expect(current.map(live.contains) == true)
        }
    }

    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)  // `.timeLimit` takes a `Duration`
    @Test(.timeLimit(.minutes(1)))
    func singletonsResolvingEachOtherFromEightTasksDoNotDeadlock() async throws {
        final class A: Sendable {
            let b: B
            init(b: B) { self.b = b }
        }
        final class B: Sendable {
            let c: C
            init(c: C) { self.c = c }
        }
        final class C: Sendable {}
        for _ in 0..<50 {
            let injector = DependencyInjector()
            injector.register(A.self, scope: .singleton) { r in try A(b: r.resolve()) }
            injector.register(B.self, scope: .singleton) { r in try B(c: r.resolve()) }
            injector.register(C.self, scope: .singleton) { _ in
                usleep(100)
                return C()
            }
            let failures = await withTaskGroup(of: Int.self) { group in
                for task in 0..<8 {
                    group.addTask {
                        // Start from different ends of the chain.
                        switch task % 3 {
                        case 0: (try? injector.resolve(A.self)) == nil ? 1 : 0
                        case 1: (try? injector.resolve(B.self)) == nil ? 1 : 0
                        default: (try? injector.resolve(C.self)) == nil ? 1 : 0
                        }
                    }
                }
                return await group.reduce(0, +)
            }
            #expect(failures == 0)
            #expect(try injector.resolve(A.self).b === injector.resolve(B.self))
        }
    }

    @Test func aFactoryThatFailsEveryOtherCallNeverPoisonsTheCache() {
        for _ in 0..<20 {
            let injector = DependencyInjector()
            let calls = Counter()
            injector.register(Probe.self, scope: .singleton) { _ in
                let call = calls.increment()
                if call.isMultiple(of: 2) == false { throw CancellationError() }
                return Probe(id: call)
            }
            let successes = Collected<ObjectIdentifier>()
            let failures = Counter()
            runOnThreads(8) { _ in
                for _ in 0..<50 {
                    do {
                        successes.append(ObjectIdentifier(try injector.resolve(Probe.self)))
                    } catch InjectionError.factoryFailed(_, _, let underlying) where underlying is CancellationError {
                        failures.increment()
                    } catch {
                        Issue.record("unexpected \(error)")
                    }
                }
            }
            #expect(Set(successes.values).count == 1)  // one instance, once created
            #expect(successes.values.count + failures.value == 400)
            #expect(calls.value == 2)  // the first call failed; the second created it, then cached
        }
    }

    @Test func registeringWhileResolvingNeverTearsAValue() {
        let injector = DependencyInjector()
        let torn = Counter()
        runOnThreads(8) { thread in
            for step in 0..<2_000 {
                if thread < 4 {
                    // Each registration's values are internally consistent: (n, n * 2).
                    let n = thread * 10_000 + step
                    if step.isMultiple(of: 3) {
                        injector.register((n, n * 2))
                    } else {
                        injector.register((Int, Int).self, scope: .singleton) { _ in (n, n * 2) }
                    }
                } else {
                    do {
                        let pair = try injector.resolve((Int, Int).self)
                        if pair.1 != pair.0 * 2 { torn.increment() }
                    } catch InjectionError.notRegistered {
                        // Before the first registration.
                    } catch {
                        torn.increment()
                    }
                }
            }
        }
        #expect(torn.value == 0)
    }
}
