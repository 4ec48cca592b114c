import Foundation
import Injector
import TestSupport
import Testing

/// A bounded argument cache (`register(_:caching: .strong(limit:))`) under a race of threads
/// that use more tuples than it keeps: what a resolve is handed is never torn down first.
@Suite struct ArgumentCacheStressTests {
    /// A value that knows whether its teardown has run.
    final class Connection: @unchecked Sendable {
        // `isClosed` is guarded by `lock`.
        private let lock = NSLock()
        private var closed = false

        var isClosed: Bool { lock.withLock { closed } }
        func close() { lock.withLock { closed = true } }
    }

    /// The value each thread's creation is handing out: the one its factory made last.
    final class HandOuts: @unchecked Sendable {
        // `byThread` is guarded by `lock`.
        private let lock = NSLock()
        private var byThread: [ObjectIdentifier: Connection] = [:]

        var mine: Connection? { lock.withLock { byThread[ObjectIdentifier(Thread.current)] } }
        func set(_ connection: Connection?) {
            lock.withLock { byThread[ObjectIdentifier(Thread.current)] = connection }
        }
    }

    /// The race: 4 threads over 6 tuples with a bound of 2. A creation keeps its value,
    /// then tears down what the bound let go before it returns the value. That teardown runs
    /// on the creating thread, between the two: it checks there, exactly, that the value the
    /// thread is handing out is still whole (a check after the resolve returns could not tell
    /// a value torn down before its hand-out from one the bound let go just after).
    @Test func aBoundNeverTearsDownAValueACreationIsStillHandingOut() throws {
        let handOuts = HandOuts()
        let tornDownWhileHandedOut = Counter()
        let teardowns = Counter()
        let injector = DependencyInjector()
        injector.register(
            Connection.self, caching: .strong(limit: 2),
            teardown: { connection in
                connection.close()
                teardowns.increment()
                // Lets the other threads use other tuples while this creation hands out its value.
                for _ in 0..<4 { sched_yield() }
                if handOuts.mine?.isClosed == true { tornDownWhileHandedOut.increment() }
            }
        ) { (_, _: Int) in
            let connection = Connection()
            handOuts.set(connection)
            return connection
        }
        let failures = Counter()
        runOnThreads(4) { thread in
            for round in 0..<5_000 {
                do {
                    _ = try injector.resolve(Connection.self, arguments: (round * 5 + thread) % 6)
                } catch {
                    failures.increment()
                }
                handOuts.set(nil)
            }
        }
        try injector.close()
        #expect(failures.value == 0)
        #expect(teardowns.value > 1_000)  // the bound let values go all along: the race ran
        #expect(tornDownWhileHandedOut.value == 0)
    }

    /// A value made by the registration of one generation.
    struct Stamp: Sendable {
        let generation: Int
    }

    /// Threads resolve cached values while the key is registered again and again: a resolve
    /// that begins after a registration returned gets a value of that registration or a later
    /// one, never one that an older registration's factory made during the change and that
    /// the newer one's cache kept; and every value made is torn down, kept or not.
    @Test func aCacheKeepsOnlyItsOwnRegistrationsValuesThroughReRegistrations() throws {
        let injector = DependencyInjector()
        let registered = Counter()  // the generations whose registration has returned
        let (made, tornDown) = (Counter(), Counter())
        let register: @Sendable () -> Void = {
            let generation = registered.value + 1
            injector.register(Stamp.self, caching: .strong, teardown: { _ in tornDown.increment() }) { (_, _: Int) in
                made.increment()
                return Stamp(generation: generation)
            }
            registered.increment()
        }
        register()
        let stale = Collected<String>()
        let done = Counter()
        runOnThreads(4) { thread in
            if thread == 0 {
                for _ in 0..<5_000 { register() }
                done.increment()
                return
            }
            var round = 0
            while done.value == 0 {
                round += 1
                let before = registered.value
                guard let stamp = try? injector.resolve(Stamp.self, arguments: round % 3) else {
                    return stale.append("a resolve failed")
                }
                if stamp.generation < before { stale.append("generation \(stamp.generation) after \(before)") }
            }
        }
        try injector.close()
        #expect(stale.values.isEmpty, "\(stale.values.prefix(3))")
        #expect(tornDown.value == made.value)  // every value, kept or not, torn down by the close
    }

    /// The same on the actor face, with tasks.
    @Test func anActorFaceCacheKeepsOnlyItsOwnRegistrationsValuesThroughReRegistrations() async throws {
        let injector = AsyncDependencyInjector()
        let registered = Counter()
        let (made, tornDown) = (Counter(), Counter())
        let register: @Sendable () async -> Void = {
            let generation = registered.value + 1
            await injector.register(Stamp.self, caching: .strong, teardown: { _ in tornDown.increment() }) {
                (_, _: Int) in
                made.increment()
                await Task.yield()
                return Stamp(generation: generation)
            }
            registered.increment()
        }
        await register()
        let stale = Collected<String>()
        let readersDone = Counter()
        let writerDone = Counter()
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                // Until both readers are done, within a bound (under a loaded run, they may lag).
                for _ in 0..<20_000 where readersDone.value < 2 { await register() }
                writerDone.increment()
            }
            for _ in 0..<2 {
                group.addTask {
                    defer { readersDone.increment() }
                    for round in 0..<20_000 where writerDone.value == 0 {
                        let before = registered.value
                        guard let stamp = try? await injector.resolve(Stamp.self, arguments: round % 3) else {
                            return stale.append("a resolve failed")
                        }
                        if stamp.generation < before { stale.append("generation \(stamp.generation) after \(before)") }
                    }
                }
            }
        }
        try await injector.close()
        #expect(stale.values.isEmpty, "\(stale.values.prefix(3))")
        #expect(tornDown.value == made.value)  // every value, kept or not, torn down by the close
    }

    /// A value cached weakly whose `deinit`, when it runs inside a resolve of its own thread
    /// (only resolving threads set `insideResolve`; the thread that drops values does not),
    /// checks whether the cache's lock is held: another thread resolves a kept tuple, which
    /// takes that lock, and may not finish within 2 s.
    final class Probe: Sendable {
        @TaskLocal static var insideResolve = false
        let injector: DependencyInjector
        let releasedUnderLock: Counter

        init(injector: DependencyInjector, counting releasedUnderLock: Counter) {
            self.injector = injector
            self.releasedUnderLock = releasedUnderLock
        }

        deinit {
            guard Self.insideResolve else { return }
            let (injector, done) = (injector, DispatchSemaphore(value: 0))
            Thread {
                _ = try? injector.resolve(Probe.self, arguments: -1)
                done.signal()
            }.start()
            if done.wait(timeout: .now() + .seconds(2)) == .timedOut { releasedUnderLock.increment() }
        }
    }

    /// The probes the resolving threads made, until the dropping thread lets go of them.
    final class HeldProbes: @unchecked Sendable {
        // `probes` is guarded by `lock`.
        private let lock = NSLock()
        private var probes: [Probe] = []

        func hold(_ probe: Probe) { lock.withLock { probes.append(probe) } }

        /// Lets go of every probe held, on the calling thread (after the unlock).
        func dropAll() {
            let dropped = lock.withLock { exchange(&probes, with: []) }
            withExtendedLifetime(dropped) {}
        }
    }

    /// A weak cache forgets the tuples whose values are gone, reading each weak reference under
    /// its lock: a value whose last holder lets go meanwhile is released after the unlock, never
    /// inside the resolve (where its `deinit`, user code, would run under the cache's lock).
    /// Found by a review: 2.85 s into a race of three threads.
    @Test func aWeakCacheReleasesNoValueInsideAResolve() throws {
        let releasedUnderLock = Counter()
        let injector = DependencyInjector()
        injector.register(Probe.self, caching: .weak) { (r, _: Int) in Probe(injector: r, counting: releasedUnderLock) }
        let kept = try injector.resolve(Probe.self, arguments: -1)  // what the checking thread reads
        let held = HeldProbes()
        let stop = Counter()
        let deadline = DispatchTime.now().uptimeNanoseconds + (isThreadSanitized ? 1 : 4) * 1_000_000_000
        runOnThreads(3) { index in
            if index == 0 {  // drops the values the others made, on its own thread
                while stop.value == 0 { held.dropAll() }
                return
            }
            var id = index * 100_000_000
            while stop.value == 0 {
                for _ in 0..<1_000 {
                    id += 1
                    let probe = Probe.$insideResolve.withValue(true) { [id] in
                        try? injector.resolve(Probe.self, arguments: id)
                    }
                    if let probe { held.hold(probe) }
                }
                if releasedUnderLock.value > 0 || DispatchTime.now().uptimeNanoseconds > deadline { stop.increment() }
            }
        }
        withExtendedLifetime(kept) {}
        #expect(releasedUnderLock.value == 0)
    }
}
