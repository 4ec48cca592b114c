import Foundation
import Injector
import Testing

// Adversarial tests of the core: the lock-free ready-value read, the registry's slots, the
// wrappers, and the two faces doing the same thing for the same scenario.

/// A class whose `deinit` runs `onDeinit`: the user code a released value runs.
private final class Tracked: Sendable {
    let label: String
    let onDeinit: @Sendable () -> Void

    init(_ label: String, onDeinit: @escaping @Sendable () -> Void = {}) {
        self.label = label
        self.onDeinit = onDeinit
    }

    deinit { onDeinit() }
}

/// A value whose initialiser starts a task that outlives it (a background loop a service
/// starts), waiting until `gate` finishes. The task does not capture the value.
private final class StartsATask: Sendable {
    init(gate: AsyncStream<Void>) {
        Task { for await _ in gate {} }
    }
}

private protocol Shape: Sendable { var sides: Int { get } }
private struct Triangle: Shape { var sides: Int { 3 } }
private struct Square: Shape { var sides: Int { 4 } }

@Suite struct AdversarialTests {
    /// Resolves `type` often enough that the injector publishes its table of ready values, so
    /// that later resolves read it without a lock (the first locked find publishes one).
    private static func warm<T: Sendable>(
        _ injector: FaceInjector, _ type: T.Type, name: String? = nil
    ) async throws {
        for _ in 0..<4 { _ = try await injector.resolve(type, name: name) }
    }

    // MARK: The published table never hands out what is no longer registered

    @Test(arguments: Face.allCases)
    func aValueReRegisteredAfterItWasPublishedIsTheNewOne(face: Face) async throws {
        let injector = face.makeInjector()
        await injector.register("first", as: String.self)
        await injector.register("named first", as: String.self, name: "a name longer than fifteen bytes")
        try await Self.warm(injector, String.self)
        try await Self.warm(injector, String.self, name: "a name longer than fifteen bytes")

        await injector.register("second", as: String.self)
        #expect(try await injector.resolve(String.self) == "second")
        #expect(try await injector.resolve(String.self, name: "a name longer than fifteen bytes") == "named first")
        await injector.register("named second", as: String.self, name: "a name longer than fifteen bytes")
        #expect(try await injector.resolve(String.self, name: "a name longer than fifteen bytes") == "named second")

        await injector.unregister(String.self)
        let error = await injector.resolveError(String.self)
        guard case .notRegistered(let key, _, _)? = error else {
            Issue.record("expected notRegistered, got \(String(describing: error))")
            return
        }
        #expect(key == DependencyKey(String.self))
    }

    @Test(arguments: Face.allCases)
    func aKeyReRegisteredWithAnotherKindOfRegistrationGivesTheNewOnesValues(face: Face) async throws {
        let injector = face.makeInjector()
        // An instance kept as its own type (the table's typed box), then a transient, then a
        // singleton, then an instance again: each read after the others were published.
        await injector.register(Service(label: "instance"))
        try await Self.warm(injector, Service.self)

        let made = Counter()
        await injector.register(Service.self) { Service(label: "transient \(made.increment())") }
        try await Self.warm(injector, Service.self)
        #expect(try await injector.resolve(Service.self).label == "transient 5")

        await injector.register(Service.self, scope: .singleton) { Service(label: "singleton") }
        let singleton = try await injector.resolve(Service.self)
        try await Self.warm(injector, Service.self)
        #expect(try await injector.resolve(Service.self) === singleton)

        await injector.register(Service(label: "instance again"))
        #expect(try await injector.resolve(Service.self).label == "instance again")

        // A protocol key (no typed box: the value's type is not the key's), re-registered
        // with a value of another type.
        await injector.register(Triangle() as any Shape)
        try await Self.warm(injector, (any Shape).self)
        await injector.register(Square() as any Shape)
        #expect(try await injector.resolve((any Shape).self).sides == 4)
        await injector.register((any Shape).self) { Triangle() }
        #expect(try await injector.resolve((any Shape).self).sides == 3)
    }

    @Test(arguments: Face.allCases)
    func aChildSeesItsParentsReRegistrationAndItsOwnOverrideGoing(face: Face) async throws {
        let parent = face.makeInjector()
        let child = parent.child()
        await parent.register("parent first", as: String.self)
        try await Self.warm(child, String.self)

        await parent.register("parent second", as: String.self)
        #expect(try await child.resolve(String.self) == "parent second")

        await child.register("child", as: String.self)
        try await Self.warm(child, String.self)
        #expect(try await child.resolve(String.self) == "child")
        await child.unregister(String.self)
        #expect(try await child.resolve(String.self) == "parent second")
    }

    @Test(arguments: Face.allCases)
    func aResetAfterTheSingletonWasPublishedMakesANewOne(face: Face) async throws {
        let injector = face.makeInjector()
        await injector.register(Service.self, scope: .singleton) { Service() }
        let first = try await injector.resolve(Service.self)
        try await Self.warm(injector, Service.self)

        switch injector.base {
        case .sync(let sync): try sync.reset(.singleton)
        case .async(let async): try await async.reset(.singleton)
        }
        let second = try await injector.resolve(Service.self)
        #expect(second !== first)
        try await Self.warm(injector, Service.self)
        #expect(try await injector.resolve(Service.self) === second)
    }

    @Test(arguments: Face.allCases)
    func anOverrideScopeBuildsItsOwnSingletonEvenWhenTheParentsIsPublished(face: Face) async throws {
        let app = face.makeInjector()
        await app.register("live", as: String.self)
        await app.register(Box<String>.self, scope: .singleton, resolving: String.self) { Box(value: $0) }
        #expect(try await app.resolve(Box<String>.self).value == "live")
        try await Self.warm(app, Box<String>.self)

        let inside = try await app.withOverrides({ await $0.register("mock", as: String.self) }) {
            try await face.currentInjector.resolve(Box<String>.self).value
        }
        #expect(inside == "mock")
        #expect(try await app.resolve(Box<String>.self).value == "live")
    }

    // MARK: Weak values

    @Test(arguments: Face.allCases)
    func aWeakValueIsSharedWhileHeldAndGoesWithItsLastReference(face: Face) async throws {
        let injector = face.makeInjector()
        await injector.register(Service.self, scope: .weak) { Service() }
        var held: Service? = try await injector.resolve(Service.self)
        weak let weakHeld = held
        #expect(try await injector.resolve(Service.self) === held)
        held = nil
        #expect(await released { weakHeld == nil })
    }

    /// A `.weak` value whose initialiser starts a long-lived task: the task copies the
    /// resolve's task-locals, which must not keep the value (nor the singleton it made).
    @Test(arguments: Face.allCases)
    func aWeakValueGoesWithItsLastReferenceThoughItStartedATaskThatOutlivesIt(face: Face) async throws {
        let injector = face.makeInjector()
        let (gate, open) = AsyncStream<Void>.makeStream()
        defer { open.finish() }
        await injector.register(StartsATask.self, scope: .weak) { StartsATask(gate: gate) }
        var held: StartsATask? = try await injector.resolve(StartsATask.self)
        weak let weakHeld = held
        held = nil
        #expect(await released { weakHeld == nil })
    }

    /// The same for a singleton that is dropped (`reset`): the old value goes.
    @Test(arguments: Face.allCases)
    func aResetSingletonGoesThoughItStartedATaskThatOutlivesIt(face: Face) async throws {
        let injector = face.makeInjector()
        let (gate, open) = AsyncStream<Void>.makeStream()
        defer { open.finish() }
        await injector.register(StartsATask.self, scope: .singleton) { StartsATask(gate: gate) }
        weak let weakHeld = try await injector.resolve(StartsATask.self)
        switch injector.base {
        case .sync(let sync): try sync.reset(.singleton)
        case .async(let async): try await async.reset(.singleton)
        }
        #expect(await released { weakHeld == nil })
    }

    /// A task that a factory started, resolving the same key later (a poller making a fresh
    /// value, say), is no resolution in progress: it gets a value, not a cycle.
    @Test(arguments: Face.allCases)
    func aTaskAFactoryStartedMayResolveThatKeyLater(face: Face) async throws {
        let injector = face.makeInjector()
        let (gate, open) = AsyncStream<Void>.makeStream()
        let (outcomes, report) = AsyncStream<String>.makeStream()
        let made = Counter()
        await injector.register(Service.self) {
            if made.increment() == 1 {
                Task {
                    for await _ in gate {}
                    do {
                        report.yield(try await injector.resolve(Service.self).label)
                    } catch {
                        report.yield("\(error)")
                    }
                }
            }
            return Service(label: "made \(made.value)")
        }
        #expect(try await injector.resolve(Service.self).label == "made 1")
        open.finish()
        var iterator = outcomes.makeAsyncIterator()
        // The actor face's task copies the resolve's task-local frames: they must show that
        // the run that started it has ended.
        #expect(await iterator.next() == "made 2")
    }

    /// A task that a factory started, resolving a `.graph` key after the resolve that started
    /// it returned, begins a resolve of its own: it gets a new value, not one shared with
    /// the resolve that has ended.
    @Test(arguments: Face.allCases)
    func aTaskAFactoryStartedSharesNoGraphValueWithTheEndedResolve(face: Face) async throws {
        let injector = face.makeInjector()
        let (gate, open) = AsyncStream<Void>.makeStream()
        let (later, report) = AsyncStream<Service>.makeStream()
        await injector.register(Service.self, scope: .graph) { Service() }
        await injector.register(Dependent.self, resolving: Service.self) { service in
            Task {
                for await _ in gate {}
                if let service = try? await injector.resolve(Service.self) { report.yield(service) }
                report.finish()
            }
            return Dependent(service: service)
        }
        let dependent = try await injector.resolve(Dependent.self)
        open.finish()
        var iterator = later.makeAsyncIterator()
        let resolvedLater = try #require(await iterator.next())
        #expect(resolvedLater !== dependent.service)
    }

    // MARK: A released value's deinit may use the injector (no library lock held)

    /// Each way a value is dropped, with a `deinit` that resolves from and registers into the
    /// same injector: a deinit run under the registry lock would deadlock here.
    @Test(arguments: ["re-register", "unregister", "reset", "re-register published", "observe"])
    func aDroppedValuesDeinitMayUseTheInjector(way: String) throws {
        let injector = DependencyInjector()
        let ran = Counter()
        let finished = try finishes {
            injector.register(Int.self) { _ in 1 }
            let deinitUses: @Sendable () -> Void = {
                _ = try? injector.resolve(Int.self)
                injector.register("from deinit", as: String.self)
                ran.increment()
            }
            switch way {
            case "reset":
                injector.register(Tracked.self, scope: .singleton) { _ in Tracked("kept", onDeinit: deinitUses) }
                _ = try injector.resolve(Tracked.self)
                try injector.reset(.singleton)
            case "observe":
                // The observer's closure holds the value; replacing the observer drops it.
                let held = Tracked("held by an observer", onDeinit: deinitUses)
                injector.observe { _ in _ = held }
                injector.stopObserving()
            default:
                injector.register(Tracked("instance", onDeinit: deinitUses))
                if way == "re-register published" {
                    for _ in 0..<4 { _ = try injector.resolve(Tracked.self) }
                }
                if way == "unregister" {
                    injector.unregister(Tracked.self)
                } else {
                    injector.register(Tracked("replacement"))
                }
            }
        }
        #expect(finished)
        #expect(ran.value == 1)
    }

    /// `reset(.weak)` while another thread lets go of a weak value: the reset must not be the
    /// one that ends up releasing it under the registry lock (it would, by reading the weak
    /// reference there: the read makes a strong reference, maybe the last one).
    @Test func aResetOfWeakValuesRacingTheirLastReleaseNeverRunsADeinitUnderTheLock() throws {
        let injector = DependencyInjector()
        injector.register(Tracked.self, scope: .weak) { _ in
            Tracked("weak") { _ = injector.isRegistered(String.self) }
        }
        let finished = try finishes(withinSeconds: 30) {
            runOnThreads(2) { thread in
                for _ in 0..<300_000 {
                    if thread == 0 {
                        try? injector.reset(.weak)
                    } else {
                        _ = try? injector.resolve(Tracked.self)
                    }
                }
            }
        }
        #expect(finished)
    }

    /// A transient factory's captures are user values too: replacing the registration drops them.
    @Test func aReplacedFactorysCapturesAreReleasedOffTheLock() throws {
        let injector = DependencyInjector()
        let ran = Counter()
        let finished = try finishes {
            let captured = Tracked("captured") {
                injector.register("from deinit", as: String.self)
                ran.increment()
            }
            injector.register(String.self) { _ in captured.label }
            for _ in 0..<4 { _ = try injector.resolve(String.self) }
            injector.register("replacement", as: String.self)
        }
        #expect(finished)
        #expect(ran.value == 1)
        #expect(try injector.resolve(String.self) == "from deinit")
    }

    // MARK: Racing first resolves

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

    /// Readers on the lock-free path while a writer replaces the value: every read is one of
    /// the values registered, never a freed one (run under TSan/ASan to see the difference).
    @Test func readersWhileAWriterReplacesTheValueSeeOnlyRegisteredValues() {
        let injector = DependencyInjector()
        injector.register(Service(label: "0"))
        let bad = Counter()
        runOnThreads(3) { thread in
            if thread == 0 {
                for round in 1...2_000 { injector.register(Service(label: "\(round)")) }
            } else {
                for _ in 0..<20_000 {
                    guard let service = try? injector.resolve(Service.self), Int(service.label) != nil else {
                        bad.increment()
                        continue
                    }
                }
            }
        }
        #expect(bad.value == 0)
        #expect((try? injector.resolve(Service.self).label) == "2000")
    }

    // MARK: Wrappers

    @Test func lazyInjectKeepsItsFirstValueAndAnAssignment() throws {
        let injector = DependencyInjector()
        let made = Counter()
        injector.register(Service.self) { _ in Service(label: "made \(made.increment())") }
        final class Owner {
            @LazyInject var service: Service
            init(injector: DependencyInjector) { _service = LazyInject(injector: injector) }
        }
        let owner = Owner(injector: injector)
        #expect(made.value == 0)
        let first = owner.service
        #expect(owner.service === first)
        #expect(made.value == 1)
        let assigned = Service(label: "assigned")
        owner.service = assigned
        #expect(owner.service === assigned)
        #expect(made.value == 1)
    }

    @Test func lazyInjectRetriesAfterAFailureAndReportsAReadOfItselfAsACycle() throws {
        let injector = DependencyInjector()
        final class Owner: @unchecked Sendable {
            @LazyInject var service: Service
            init(injector: DependencyInjector) { _service = LazyInject(injector: injector) }
        }
        let owner = Owner(injector: injector)
        guard case .failure(.notRegistered) = owner.$service else {
            Issue.record("expected notRegistered")
            return
        }
        // A factory that reads the property it is resolving for: a cycle, not a deadlock.
        injector.register(Service.self) { _ in
            if case .failure(let error) = owner.$service { throw error }
            return Service()
        }
        let results = Collected<Result<Service, InjectionError>>()
        let finished = try finishes { results.append(owner.$service) }
        #expect(finished)
        let result = results.values.first
        guard case .failure(.circularDependency)? = result else {
            Issue.record("expected circularDependency, got \(String(describing: result))")
            return
        }
        injector.register(Service.self) { _ in Service(label: "fixed") }
        #expect((try? owner.$service.get().label) == "fixed")
    }

    /// A cycle through a `@LazyInject` property and a singleton, entered from two threads at
    /// once: X reads the property (its factory needs the singleton), Y creates the singleton
    /// (its factory reads the property). Reported as a cycle on one thread, as a cycle of two
    /// singletons is, never a deadlock.
    @Test func aCycleThroughALazyPropertyAndASingletonOnTwoThreadsIsReported() throws {
        final class Holder: @unchecked Sendable {
            @LazyInject var node: NodeA
            init(injector: DependencyInjector) { _node = LazyInject(injector: injector) }
        }
        let injector = DependencyInjector()
        let holder = Holder(injector: injector)
        let yCreates = DispatchSemaphore(value: 0)
        let xResolves = DispatchSemaphore(value: 0)
        injector.register(NodeA.self) { r in
            xResolves.signal()
            _ = try r.resolve(Service.self)
            return NodeA()
        }
        let runs = Counter()
        injector.register(Service.self, scope: .singleton) { _ in
            // The first run, Y's, meets X in the middle; a retry after the reported cycle
            // (on either thread) goes straight on, and finds a cycle of its own.
            if runs.increment() == 1 {
                yCreates.signal()
                xResolves.wait()
            }
            _ = try holder.$node.get()
            return Service()
        }
        let errors = Collected<InjectionError>()
        let finished = try finishes(withinSeconds: 2) {
            runOnThreads(2) { thread in
                if thread == 0 {
                    yCreates.wait()
                    if case .failure(let error) = holder.$node { errors.append(error) }
                } else {
                    do throws(InjectionError) {
                        _ = try injector.resolve(Service.self)
                    } catch {
                        errors.append(error)
                    }
                }
            }
        }
        #expect(finished)
        #expect(errors.values.contains { if case .circularDependency = $0 { true } else { false } })
    }

    @Test func optionalInjectIsNilOnlyWhenNothingIsRegistered() {
        let parent = DependencyInjector()
        let child = parent.child()
        struct Owner {
            @OptionalInject var service: Service?
            init(injector: DependencyInjector) { _service = OptionalInject(injector: injector) }
        }
        #expect(Owner(injector: child).service == nil)
        guard case .success(nil) = Owner(injector: child).$service else {
            Issue.record("expected success(nil)")
            return
        }

        parent.register(Service(label: "parent"))
        #expect(Owner(injector: child).service?.label == "parent")

        // Registered but broken: nil, with the error kept.
        child.register(Service.self) { _ in throw SampleError(code: 7) }
        let broken = Owner(injector: child)
        #expect(broken.service == nil)
        guard case .failure(.factoryFailed(_, _, let underlying)) = broken.$service else {
            Issue.record("expected factoryFailed, got \(broken.$service)")
            return
        }
        #expect(underlying as? SampleError == SampleError(code: 7))

        // Registered, with a dependency missing: the error names the missing dependency.
        child.register(Dependent.self) { r in try Dependent(service: r.resolve(name: "missing")) }
        struct DependentOwner {
            @OptionalInject var dependent: Dependent?
            init(injector: DependencyInjector) { _dependent = OptionalInject(injector: injector) }
        }
        guard case .failure(.notRegistered(let key, _, _)) = DependentOwner(injector: child).$dependent else {
            Issue.record("expected notRegistered of the dependency")
            return
        }
        #expect(key == DependencyKey(Service.self, name: "missing"))
    }

    @Test func aScopedProviderReadsWhatTheInjectorHoldsNow() throws {
        let injector = DependencyInjector()
        let made = Counter()
        struct Module {
            @Provider var service: Service
            init(injector: DependencyInjector, made: Counter) {
                _service = Provider(scope: .singleton, injector: injector) { _ in
                    Service(label: "made \(made.increment())")
                }
            }
        }
        let module = Module(injector: injector, made: made)
        #expect(made.value == 0)
        let first = module.service
        #expect(module.service === first)
        #expect(try injector.resolve(Service.self) === first)
        try injector.reset(.singleton)
        #expect(module.service !== first)
        #expect(made.value == 2)
        injector.unregister(Service.self)
        guard case .failure(.notRegistered) = module.$service else {
            Issue.record("expected notRegistered after unregister")
            return
        }
    }
}
