import Foundation
import Injector
import Synchronization
import TestSupport
import Testing

/// The read path of ready values (registered instances, created singletons, transients'
/// factories) under writes that replace, remove or reset them, on real threads: what a
/// resolve returns while others register, unregister, reset, observe or make children, and
/// that nothing it read stays alive afterwards. Only the public API, so the same assertions
/// hold whether a read takes the registry's lock or not.
///
/// Every bound is a number of operations: 1.3 to 1.5 million resolves in all (each test but
/// the unregistration one, whose readers stop soon after the writer, checks its own count).
/// The thread sanitizer runs the same counts, in about 12 s on two cores, so nothing is
/// scaled down for it.
///
/// The threads share nothing during a race but the injector: flags are atomics written once,
/// births and deaths are counted with relaxed atomics, and findings are kept per thread until
/// it ends, so that no lock of the test orders the readers and hides a race from TSan.
///
/// Threads capture an injector `unowned`: `runOnThreads` returns before its threads release
/// their closures, so a strong capture could keep the injector, and its values, alive past
/// the check that they are gone.
@Suite struct ReadyValueStressTests {
    /// Readers of one key, while a writer registers it again and again (an instance, a
    /// singleton and a transient in turn), each registration with a new, larger id.
    private static let rereadersReads = 60_000
    private static let rereadersGenerations = 6_000

    /// A user relies on a resolve racing `register` returning a whole value that was
    /// registered, never an older one than it has already seen, the last one once `register`
    /// has returned, and on no replaced value staying alive. (Catches: a read of a freed or
    /// stale table, a table published from a stale read, a retired table never freed.)
    /// How a reader asks: a resolve of the key, or of its optional (the untyped read that
    /// `T?`, a forward and a key path take from the published table).
    enum Route: CaseIterable, Sendable {
        case resolve
        case optional

        struct NoValue: Error {}

        func read(_ injector: DependencyInjector) throws -> Tracked {
            switch self {
            case .resolve:
                return try injector.resolve(Tracked.self)
            case .optional:
                guard let value = try injector.resolve(Tracked?.self) else { throw NoValue() }
                return value
            }
        }
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)  // `Atomic`
    @Test(arguments: Route.allCases)
    func readersRacingReRegistrationSeeRegisteredValuesInOrderAndFreeThemAll(route: Route) throws {
        let ledger = Ledger()
        let generations = Self.rereadersGenerations
        let findings = Findings()
        do {
            let injector = DependencyInjector()
            injector.register(Tracked(id: 0, ledger: ledger))
            let writerDone = Flag()

            runOnThreads(5) { [unowned injector] thread in
                guard thread > 0 else {
                    // The writer reads its own writes: linearizable, and the first to see a
                    // value that a slow reader published after the write.
                    var writer = Reader(valid: 1...generations)
                    for generation in 1...generations {
                        register(generation, as: generation % 3, in: injector, ledger: ledger)
                        writer.check(last: generation) { try injector.resolve(Tracked.self) }
                    }
                    writerDone.raise()
                    findings.add(writer)
                    return
                }
                var reader = Reader(valid: 0...generations)
                for _ in 0..<Self.rereadersReads {
                    let settled = writerDone.isRaised
                    reader.check(last: settled ? generations : nil) { try route.read(injector) }
                }
                findings.add(reader)
            }

            // Linearizable: the writer has returned, so every read now returns its last value;
            // and a value read, then replaced, whatever the race left, is never read again.
            #expect(try injector.resolve(Tracked.self).id == generations)
            #expect(try injector.resolve(Tracked.self).id == generations)
            register(generations + 1, as: 0, in: injector, ledger: ledger)
            runOnThreads(4) { [unowned injector] _ in
                var reader = Reader(valid: 0...generations + 1)
                for _ in 0..<1_000 { reader.check(last: generations + 1) { try route.read(injector) } }
                findings.add(reader)
            }
            injector.unregister(Tracked.self)
            #expect(throws: InjectionError.self) { try injector.resolve(Tracked.self) }
            // Released by `unregister` itself, with the injector still alive.
            #expect(ledger.born == ledger.died, "\(ledger.born - ledger.died) values outlived their registration")
        }
        #expect(findings.problems.isEmpty, "\(findings.problems.prefix(5))")
        #expect(findings.reads == 4 * (Self.rereadersReads + 1_000) + generations)
        #expect(ledger.born > generations / 3 && ledger.born == ledger.died)  // a third were instances
    }

    /// Readers of one key, while a writer registers and unregisters it.
    private static let unregisterReads = 50_000
    private static let unregisterCycles = 12_000

    /// A user relies on a resolve racing `unregister` returning a registered value or throwing
    /// `notRegistered`, nothing else, and throwing it once `unregister` has returned. (Catches:
    /// a table not withdrawn by `unregister`, or published again from a read that saw the
    /// removed value.)
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)  // `Atomic`
    @Test func readersRacingUnregistrationSeeTheValueOrNotRegisteredAndThenNotRegistered() throws {
        let ledger = Ledger()
        let cycles = Self.unregisterCycles
        let findings = Findings()
        do {
            let injector = DependencyInjector()
            let writerDone = Flag()
            runOnThreads(5) { [unowned injector] thread in
                guard thread > 0 else {
                    // The writer reads its own writes: linearizable, and the first to see a
                    // value that a slow reader published after the write.
                    var writer = Reader(valid: 1...cycles)
                    for cycle in 1...cycles {
                        register(cycle, as: cycle % 3, in: injector, ledger: ledger)
                        writer.check(last: cycle) { try injector.resolve(Tracked.self) }
                        injector.unregister(Tracked.self)
                        do {
                            writer.check(try injector.resolve(Tracked.self), last: -1)
                        } catch InjectionError.notRegistered {
                            writer.reads += 1
                            writer.misses += 1
                        } catch {
                            writer.problems.append("\(error)")
                        }
                    }
                    writerDone.raise()
                    findings.add(writer)
                    return
                }
                var reader = Reader(valid: 1...cycles)
                var checksAfterDone = 0
                // A thrown error is costly in a test process (the test library records a
                // backtrace of each): a reader that has seen the writer done checks 64 more reads.
                for _ in 0..<Self.unregisterReads where checksAfterDone < 64 {
                    let settled = writerDone.isRaised
                    if settled { checksAfterDone += 1 }
                    do {
                        let value = try injector.resolve(Tracked.self)
                        reader.check(value, last: settled ? -1 : nil)
                    } catch InjectionError.notRegistered {
                        reader.reads += 1
                        reader.misses += 1
                    } catch {
                        reader.problems.append("\(error)")
                    }
                }
                findings.add(reader)
            }
            // A value read, then unregistered, whatever the race left, is never read again.
            injector.register(Tracked(id: cycles, ledger: ledger))
            #expect(try injector.resolve(Tracked.self).id == cycles)
            #expect(try injector.resolve(Tracked.self).id == cycles)
            injector.unregister(Tracked.self)
            runOnThreads(4) { [unowned injector] _ in
                var reader = Reader(valid: 0...0)
                for _ in 0..<100 {
                    do {
                        let value = try injector.resolve(Tracked.self)
                        reader.check(value, last: -1)
                    } catch InjectionError.notRegistered {
                        reader.reads += 1
                        reader.misses += 1
                    } catch {
                        reader.problems.append("\(error)")
                    }
                }
                findings.add(reader)
            }
            // The last unregistration raced the readers: released once they left.
            #expect(
                eventually { ledger.born == ledger.died },
                "\(ledger.born - ledger.died) values outlived their registration")
        }
        #expect(findings.problems.isEmpty, "\(findings.problems.prefix(5))")
        #expect(findings.misses >= 400 + cycles)  // the writer's own, and the last reads
        #expect(ledger.born >= cycles / 3 && ledger.born == ledger.died)  // a third were instances
    }

    /// Injectors made, read from several threads and dropped, one after another.
    private static let releaseRounds = 400
    private static let releaseReadsPerThread = 50

    /// A user relies on an injector that goes away releasing everything it held, even when
    /// several threads read it and the last of them drops it. (Catches: a published table that
    /// its injector's `deinit` does not free, or that a thread's announcement keeps alive.)
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)  // `Atomic`
    @Test func droppingInjectorsThatThreadsReadReleasesEveryValue() {
        let ledger = Ledger()
        let findings = Findings()
        let survivors = Counter()
        for round in 0..<Self.releaseRounds {
            weak var released: DependencyInjector?
            let holder = Holder()
            do {
                let injector = DependencyInjector()
                injector.register(Tracked(id: 1, ledger: ledger))
                injector.register(Tracked.self, name: "singleton", scope: .singleton) { _ in
                    Tracked(id: 2, ledger: ledger)
                }
                injector.register(Tracked.self, name: "transient") { _ in Tracked(id: 3, ledger: ledger) }
                holder.injector = injector
                released = injector
            }
            let finished = Counter()
            let singletons = Collected<ObjectIdentifier>()
            let read: @Sendable (Int) -> Void = { _ in
                guard let injector = holder.injector else { return }
                var reader = Reader(valid: 1...3)
                var singleton: ObjectIdentifier?
                for _ in 0..<Self.releaseReadsPerThread {
                    reader.check(expected: 1) { try injector.resolve(Tracked.self) }
                    let kept = reader.check(expected: 2) { try injector.resolve(Tracked.self, name: "singleton") }
                    singleton = singleton ?? kept.map(ObjectIdentifier.init)
                    reader.check(expected: 3) { try injector.resolve(Tracked.self, name: "transient") }
                }
                singleton.map(singletons.append)
                findings.add(reader)
                // The last reader drops the injector, on its own thread.
                if finished.increment() == 4 { holder.injector = nil }
            }
            // New threads, and the same few reused threads of the dispatch pool, in turn.
            if round.isMultiple(of: 2) {
                runOnThreads(4, read)
            } else {
                DispatchQueue.concurrentPerform(iterations: 4, execute: read)
            }
            if released != nil { survivors.increment() }
            if Set(singletons.values).count != 1 { findings.add(problem: "round \(round): not one singleton") }
        }
        #expect(findings.problems.isEmpty, "\(findings.problems.prefix(5))")
        #expect(findings.reads == Self.releaseRounds * 4 * Self.releaseReadsPerThread * 3)
        #expect(survivors.value == 0, "\(survivors.value) injectors outlived their last reference")
        #expect(ledger.born == ledger.died, "\(ledger.born - ledger.died) values outlived their injector")
    }

    /// Readers of a parent, while other threads make children that override a key.
    private static let childReads = 40_000
    private static let childrenPerThread = 6_000

    /// A user relies on a child sharing its parent's singleton, on a child's override winning
    /// in the child (and its children) only, and on the parent's reads never seeing an
    /// override. (Catches: a table shared or published across injectors, or a child's table
    /// keeping values alive after it is dropped.)
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)  // `Atomic`
    @Test func childrenMadeOverriddenAndDroppedWhileTheParentIsReadKeepOverridesLocal() throws {
        let ledger = Ledger()
        let findings = Findings()
        weak var parentReference: DependencyInjector?
        do {
            let parent = DependencyInjector()
            parentReference = parent
            parent.register(Tracked.self, scope: .singleton) { _ in Tracked(id: 1, ledger: ledger) }
            parent.register(Tracked(id: 2, ledger: ledger), name: "instance")
            let singletons = Collected<ObjectIdentifier>()

            runOnThreads(4) { [unowned parent] thread in
                var reader = Reader(valid: -(Self.childrenPerThread * 2 + 1)...2)
                var singleton: ObjectIdentifier?
                guard thread >= 2 else {
                    for _ in 0..<Self.childReads {
                        let kept = reader.check(expected: 1) { try parent.resolve(Tracked.self) }
                        singleton = singleton ?? kept.map(ObjectIdentifier.init)
                        if singleton != kept.map(ObjectIdentifier.init) { reader.problems.append("singleton changed") }
                        reader.check(expected: 2) { try parent.resolve(Tracked.self, name: "instance") }
                    }
                    singleton.map(singletons.append)
                    findings.add(reader)
                    return
                }
                for step in 1...Self.childrenPerThread {
                    let id = -(step * 2 + thread - 2)  // this thread's own ids
                    let child = parent.child(singletons: step % 4 == 3 ? .own : .shared)
                    if step.isMultiple(of: 2) {
                        child.register(Tracked(id: id, ledger: ledger), name: "instance")
                    } else {
                        child.register(Tracked.self, name: "instance", scope: .singleton) { _ in
                            Tracked(id: id, ledger: ledger)
                        }
                    }
                    let grandchild = child.child()
                    reader.check(expected: id) { try child.resolve(Tracked.self, name: "instance") }
                    reader.check(expected: id) { try grandchild.resolve(Tracked.self, name: "instance") }
                    reader.check(expected: 2) { try parent.resolve(Tracked.self, name: "instance") }
                    let inChild = reader.check(expected: 1) { try child.resolve(Tracked.self) }
                    let inParent = reader.check(expected: 1) { try parent.resolve(Tracked.self) }
                    let shared = inChild != nil && inChild === inParent
                    // An `.own` child keeps its own copy of the parent's singleton.
                    if shared != (step % 4 != 3) { reader.problems.append("step \(step): shared is \(shared)") }
                    // Without its override, the child sees the parent's value again.
                    child.unregister(Tracked.self, name: "instance")
                    reader.check(expected: 2) { try child.resolve(Tracked.self, name: "instance") }
                    reader.check(expected: 2) { try grandchild.resolve(Tracked.self, name: "instance") }
                }
                findings.add(reader)
            }
            #expect(Set(singletons.values).count == 1)
        }
        #expect(findings.problems.isEmpty, "\(findings.problems.prefix(5))")
        #expect(findings.reads == 2 * (Self.childReads * 2 + Self.childrenPerThread * 7))
        #expect(parentReference == nil)
        #expect(
            eventually { ledger.born == ledger.died }, "\(ledger.born - ledger.died) values outlived their injectors")
    }

    /// Readers of seven keys of one type (no name, short names, names of 15 and 16 bytes, two
    /// long names that differ in their last byte), while a writer registers each again and
    /// again with a new id.
    private static let namedRounds = 8_000
    private static let namedGenerations = 1_500
    private static let names: [String?] = [
        nil, "a", "b", "fifteen-bytes-x", "sixteen-bytes-xx", "a-long-name-over-fifteen-bytes-1",
        "a-long-name-over-fifteen-bytes-2",
    ]

    /// A user relies on a name finding its own value, never another name's, whatever the
    /// lengths of the names, while names are registered again. (Catches: names compared by
    /// length, prefix, hash or storage only, or a small and a long name confused.)
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)  // `Atomic`
    @Test func readersOfNamedKeysRacingReRegistrationGetTheirNamesValue() throws {
        let ledger = Ledger()
        let names = Self.names
        let generations = Self.namedGenerations
        let findings = Findings()
        do {
            let injector = DependencyInjector()
            for (index, name) in names.enumerated() {
                injector.register(Tracked(id: index, ledger: ledger), name: name)
            }
            let writerDone = Flag()

            runOnThreads(4) { [unowned injector] thread in
                guard thread > 0 else {
                    // The writer reads its own writes (see the first test).
                    var writers = names.indices.map { _ in Reader(valid: 0...generations * 8 + 7) }
                    for generation in 1...generations {
                        for (index, name) in names.enumerated() {
                            let id = generation * 8 + index
                            register(id, as: (generation + index) % 3, in: injector, ledger: ledger, name: name)
                            writers[index].check(last: id) { try injector.resolve(Tracked.self, name: name) }
                        }
                    }
                    writerDone.raise()
                    for writer in writers { findings.add(writer) }
                    return
                }
                // Odd readers use the writer's literals; even ones the same names built at run
                // time, in storage of their own.
                let keys =
                    thread.isMultiple(of: 2)
                    ? names.map { $0.map { String(decoding: Array($0.utf8), as: UTF8.self) } } : names
                var readers = names.indices.map { _ in Reader(valid: 0...generations * 8 + 7) }
                for _ in 0..<Self.namedRounds {
                    let settled = writerDone.isRaised
                    for (index, name) in keys.enumerated() {
                        let last = settled ? generations * 8 + index : nil
                        let value = readers[index].check(last: last) { try injector.resolve(Tracked.self, name: name) }
                        if let value, value.id % 8 != index {
                            readers[index].problems.append(
                                "\(name ?? "nil") gave the value of \(names[value.id % 8] ?? "nil")")
                        }
                    }
                }
                for reader in readers { findings.add(reader) }
            }
            for (index, name) in names.enumerated() {
                #expect(try injector.resolve(Tracked.self, name: name).id == generations * 8 + index)
                injector.unregister(Tracked.self, name: name)
            }
        }
        #expect(findings.problems.isEmpty, "\(findings.problems.prefix(5))")
        #expect(findings.reads == (3 * Self.namedRounds + generations) * names.count)
        #expect(ledger.born == ledger.died, "\(ledger.born - ledger.died) values outlived their registration")
    }

    /// Readers of a singleton, while another thread resets the singletons, reading before and
    /// after each reset.
    private static let resetReads = 40_000
    private static let resets = 10_000

    /// A user relies on a resolve racing `reset(.singleton)` returning a whole singleton, never
    /// an older one than it has seen, and on a resolve after `reset` making a new one. (Catches:
    /// a table not withdrawn by `reset`, or published again from a read before it, which keeps
    /// returning the dropped singleton, or a dropped value kept alive.)
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)  // `Atomic`
    @Test func readersRacingResetGetWholeSingletonsAndANewOneAfterTheReset() throws {
        let ledger = Ledger()
        let findings = Findings()
        do {
            let injector = DependencyInjector()
            let made = Count()
            injector.register(Tracked.self, scope: .singleton) { _ in
                Tracked(id: made.add(), ledger: ledger)
            }
            runOnThreads(4) { [unowned injector] thread in
                var reader = Reader(valid: 1...Int.max)
                guard thread > 0 else {
                    for _ in 0..<Self.resets {
                        guard let before = reader.check(last: nil, { try injector.resolve(Tracked.self) }) else {
                            continue
                        }
                        do {
                            try injector.reset(.singleton)
                        } catch {
                            reader.problems.append("reset: \(error)")
                        }
                        // Linearizable: `before` was kept when the reset began, so the reset dropped it.
                        let after = reader.check(last: nil) { try injector.resolve(Tracked.self) }
                        if after === before { reader.problems.append("the reset kept \(before.id)") }
                    }
                    findings.add(reader)
                    return
                }
                for _ in 0..<Self.resetReads {
                    if let value = reader.check(last: nil, { try injector.resolve(Tracked.self) }),
                        value.id > made.value
                    {
                        reader.problems.append("id \(value.id) was never made")
                    }
                }
                findings.add(reader)
            }

            let before = try injector.resolve(Tracked.self)
            try injector.reset(.singleton)
            let after = try injector.resolve(Tracked.self)
            #expect(after !== before)
            #expect(after.id == made.value)
            let seen = Collected<ObjectIdentifier>()
            runOnThreads(4) { [unowned injector] _ in
                for _ in 0..<100 { (try? injector.resolve(Tracked.self)).map { seen.append(ObjectIdentifier($0)) } }
            }
            #expect(Set(seen.values) == [ObjectIdentifier(after)])
            #expect(seen.values.count == 400)
            injector.unregister(Tracked.self)
        }
        #expect(findings.problems.isEmpty, "\(findings.problems.prefix(5))")
        #expect(findings.reads == 3 * Self.resetReads + 2 * Self.resets)
        #expect(ledger.born > 1)
        #expect(ledger.born == ledger.died, "\(ledger.born - ledger.died) values outlived the resets")
    }

    /// Readers of an instance and a singleton, while another thread installs and removes
    /// observers and checks its own resolves of a third key, which no one else resolves.
    private static let observedReads = 25_000
    private static let toggles = 1_000
    private static let resolvesPerToggle = 10

    /// A user relies on every resolve made while an observer is installed being reported to
    /// it, and none after `stopObserving` has returned. (Catches: a ready value read from a
    /// table that skips the observer, or a table published before `observe` and still read.)
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)  // `Atomic`
    @Test func everyResolveMadeWhileObservedIsReportedEvenWhenObserversComeAndGo() throws {
        let ledger = Ledger()
        let findings = Findings()
        let perToggle = Self.resolvesPerToggle
        do {
            let injector = DependencyInjector()
            injector.register(Tracked(id: 1, ledger: ledger))
            injector.register(Tracked.self, name: "singleton", scope: .singleton) { _ in
                Tracked(id: 2, ledger: ledger)
            }
            injector.register(Tracked(id: 3, ledger: ledger), name: "own")
            let othersHeard = Count()

            runOnThreads(4) { [unowned injector] thread in
                var reader = Reader(valid: 1...3)
                guard thread == 0 else {
                    for _ in 0..<Self.observedReads {
                        reader.check(expected: 1) { try injector.resolve(Tracked.self) }
                        reader.check(expected: 2) { try injector.resolve(Tracked.self, name: "singleton") }
                    }
                    findings.add(reader)
                    return
                }
                for toggle in 0..<Self.toggles {
                    let heard = Tally()
                    injector.observe { event in heard.note(event) }
                    for _ in 0..<perToggle {
                        reader.check(expected: 3) { try injector.resolve(Tracked.self, name: "own") }
                    }
                    // The observer runs on the resolving thread, before the resolve returns.
                    if heard.own != perToggle { reader.problems.append("toggle \(toggle): \(heard.own) reports") }
                    injector.stopObserving()
                    for _ in 0..<perToggle {
                        reader.check(expected: 3) { try injector.resolve(Tracked.self, name: "own") }
                    }
                    if heard.own != perToggle { reader.problems.append("toggle \(toggle): reported after stopping") }
                    if heard.failures > 0 { reader.problems.append("toggle \(toggle): a resolve failed") }
                    othersHeard.add(heard.others)
                }
                findings.add(reader)
            }
            #expect(othersHeard.value <= 3 * 2 * Self.observedReads)

            // Once the toggling is over: every resolve of every thread, and only those, reported.
            let heard = Tally()
            injector.observe { event in heard.note(event) }
            runOnThreads(4) { [unowned injector] _ in
                var reader = Reader(valid: 1...2)
                for _ in 0..<250 { reader.check(expected: 1) { try injector.resolve(Tracked.self) } }
                for _ in 0..<250 { reader.check(expected: 2) { try injector.resolve(Tracked.self, name: "singleton") } }
                findings.add(reader)
            }
            #expect(heard.others == 2_000)
            injector.stopObserving()
            for _ in 0..<100 { _ = try injector.resolve(Tracked.self) }
            #expect(heard.others == 2_000)
            #expect(heard.failures == 0)
        }
        #expect(findings.problems.isEmpty, "\(findings.problems.prefix(5))")
        #expect(findings.reads == 3 * 2 * Self.observedReads + Self.toggles * 2 * perToggle + 2_000)
        #expect(ledger.born == ledger.died)
    }

    /// Tasks resolving from an async injector, while one task registers the key again.
    private static let asyncReads = 10_000
    private static let asyncGenerations = 1_500

    /// A user relies on the async injector's resolve racing `register` as on the sync one's:
    /// a whole registered value, never older than one already seen, the last once `register`
    /// has returned. (Catches: the same faults on the path tasks take.)
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)  // `Atomic`
    @Test func tasksRacingReRegistrationOnAnAsyncInjectorSeeRegisteredValuesInOrder() async throws {
        try await raceReadersOfAnAsyncInjector { injector, ledger, generation in
            if generation.isMultiple(of: 2) {
                await injector.register(Tracked(id: generation, ledger: ledger))
            } else {
                await injector.register(Tracked.self, scope: .singleton) { _ in
                    Tracked(id: generation, ledger: ledger)
                }
            }
        }
    }

    /// The same for a transient with an async factory, which the actor face runs from the
    /// published table without a lock: each resolve runs a factory that was registered, never
    /// an older one than a factory it ran before, the last once `register` has returned; the
    /// replaced registrations are freed with their factories' captures. (Catches: a
    /// registration used after the table let go of it, or read from a table torn down.)
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)  // `Atomic`
    @Test func tasksRacingReRegistrationOfAnAsyncTransientRunRegisteredFactoriesInOrder() async throws {
        try await raceReadersOfAnAsyncInjector { injector, ledger, generation in
            let captured = Tracked(id: generation, ledger: ledger)  // freed with the registration
            await injector.register(Tracked.self) { _ in
                await Task.yield()  // an async factory, suspended mid-run
                return Tracked(id: captured.id, ledger: ledger)
            }
        }
    }

    /// Four tasks resolving `Tracked` from an async injector while one task registers
    /// generations 1 through `asyncGenerations` with `register` (generation 0 first): every
    /// read is a whole registered value, never older than one its task saw, the last once the
    /// writer is done; every value is freed once the key is unregistered.
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)  // `Atomic`
    private func raceReadersOfAnAsyncInjector(
        registering register: @escaping @Sendable (AsyncDependencyInjector, Ledger, Int) async -> Void
    ) async throws {
        let ledger = Ledger()
        let generations = Self.asyncGenerations
        let findings = Findings()
        do {
            let injector = AsyncDependencyInjector()
            await register(injector, ledger, 0)
            let writerDone = Flag()
            await withTaskGroup(of: Void.self) { group in
                group.addTask { [unowned injector] in
                    for generation in 1...generations {
                        await register(injector, ledger, generation)
                        // The pool may have a single thread free: let the readers in.
                        await Task.yield()
                    }
                    writerDone.raise()
                }
                for _ in 0..<4 {
                    group.addTask { [unowned injector] in
                        var reader = Reader(valid: 0...generations)
                        for read in 1...Self.asyncReads {
                            if read.isMultiple(of: 8) { await Task.yield() }
                            let settled = writerDone.isRaised
                            do {
                                let value = try await injector.resolve(Tracked.self)
                                reader.check(value, last: settled ? generations : nil)
                            } catch {
                                reader.reads += 1
                                reader.problems.append("\(error)")
                            }
                        }
                        findings.add(reader)
                    }
                }
            }
            #expect(try await injector.resolve(Tracked.self).id == generations)
            await injector.unregister(Tracked.self)
        }
        #expect(findings.problems.isEmpty, "\(findings.problems.prefix(5))")
        #expect(findings.reads == 4 * Self.asyncReads)
        #expect(ledger.born == ledger.died, "\(ledger.born - ledger.died) values outlived their registration")
    }
}

/// Registers `Tracked(id:)` under `name`: an instance (`kind` 0), a singleton's factory (1)
/// or a transient's (2).
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
private func register(_ id: Int, as kind: Int, in injector: DependencyInjector, ledger: Ledger, name: String? = nil) {
    switch kind {
    case 0: injector.register(Tracked(id: id, ledger: ledger), name: name)
    case 1: injector.register(Tracked.self, name: name, scope: .singleton) { _ in Tracked(id: id, ledger: ledger) }
    default: injector.register(Tracked.self, name: name, scope: .transient) { _ in Tracked(id: id, ledger: ledger) }
    }
}
