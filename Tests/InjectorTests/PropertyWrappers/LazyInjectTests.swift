import Foundation
import Injector
import Testing

// The backing storage of a wrapped property is a `var`, so a class that has one cannot be
// checked `Sendable`. `@LazyInject` guards its own state with a lock, so these are honest.
private final class ReportScreen: @unchecked Sendable {
    @LazyInject var service: Service
    @LazyInject(name: "title") var title: String
}

/// Lazy properties of a protocol type (a struct behind it), an optional and an array.
private final class Kinds: @unchecked Sendable {
    @LazyInject var foo: any FooService
    @LazyInject var maybe: Int?
    @LazyInject var pair: [String]
}

/// Needs `Pong`, which needs `Ping` back: `@LazyInject` on one side breaks the cycle.
private final class Ping: @unchecked Sendable {
    @LazyInject var pong: Pong
}

private final class Pong: @unchecked Sendable {
    @Inject var ping: Ping
}

/// Lazy properties of values an injector holds ready: a class as itself, and as `AnyObject`
/// (a value whose type is not the key's, kept in a box of its own).
private final class ReadyReader: @unchecked Sendable {
    @LazyInject var service: Service
    @LazyInject var object: AnyObject
    init(injector: DependencyInjector) {
        _service = LazyInject(injector: injector)
        _object = LazyInject(injector: injector)
    }
}

@Suite struct LazyInjectTests {
    /// A first read of a value the injector holds ready (a created singleton, an instance
    /// registered as a supertype) keeps that value without a lock and runs nothing, and every
    /// thread that reads first at once sees it. (Catches: racing first reads on the lock-free
    /// path keeping different boxes, or one returning a value other than the one kept.)
    @Test func threadsReadingAReadyValueForTheFirstTimeAllSeeIt() throws {
        for _ in 0..<50 {
            let injector = DependencyInjector()
            let made = Counter()
            injector.register(Service.self, scope: .singleton) { _ in Service(label: "made \(made.increment())") }
            let singleton = try injector.resolve(Service.self)
            let instance = Service(label: "instance")
            injector.register(instance as AnyObject)
            let reader = ReadyReader(injector: injector)
            let services = Collected<Service>()
            let objects = Collected<AnyObject>()
            runOnThreads(8) { _ in
                services.append(reader.service)
                objects.append(reader.object)
            }

            #expect(made.value == 1)
            #expect(services.values.count == 8)
            #expect(services.values.allSatisfy { $0 === singleton })
            #expect(objects.values.count == 8)
            #expect(objects.values.allSatisfy { $0 === instance })
            #expect(reader.service === singleton)
        }
    }

    /// An assignment racing first reads of a ready value wins: once it has returned, every
    /// read gives the assigned value. (Catches: a first read's keep overwriting an assignment.)
    @Test func anAssignmentRacingFirstReadsOfAReadyValueWins() throws {
        for _ in 0..<50 {
            let injector = DependencyInjector()
            injector.register(Service(label: "registered"))
            let reader = ReadyReader(injector: injector)
            let assigned = Service(label: "assigned")
            let seen = Collected<Service>()
            runOnThreads(4) { thread in
                if thread == 0 {
                    reader.service = assigned
                } else {
                    seen.append(reader.service)
                }
            }

            #expect(reader.service === assigned)
            #expect(seen.values.allSatisfy { ["registered", "assigned"].contains($0.label) })
        }
    }

    /// While an observer watches the injector, a first read of a ready value is reported to
    /// it, as a resolve is: the lock-free path is closed to it. (Catches: a first read that
    /// skips the observation hook.)
    @Test func aFirstReadOfAReadyValueReachesTheObserver() {
        let injector = DependencyInjector()
        injector.register(Service(label: "registered"))
        let events = Counter()
        injector.observe { _ in events.increment() }
        let reader = ReadyReader(injector: injector)

        #expect(reader.service.label == "registered")
        #expect(events.value >= 1)
    }

    @Test func resolvesOnFirstReadThenKeepsTheValue() {
        let injector = DependencyInjector()
        let calls = Counter()
        injector.register(Service.self) { _ in Service(label: "call \(calls.increment())") }

        let screen = DependencyInjector.$current.withValue(injector) { ReportScreen() }
        #expect(calls.value == 0)
        #expect(screen.service.label == "call 1")
        #expect(screen.service.label == "call 1")
        #expect(calls.value == 1)
    }

    @Test func seesRegistrationsMadeAfterInitAndUsesTheInjectorCapturedAtInit() async {
        let injector = DependencyInjector()
        let screen = DependencyInjector.$current.withValue(injector) { ReportScreen() }
        injector.register("Quarterly", name: "title")

        // Read outside the scope, from another task: still the injector captured at init.
        let title = await Task.detached { screen.title }.value
        #expect(title == "Quarterly")
    }

    @Test func aFailedResolutionIsNotKeptAndTheNextReadRetries() throws {
        let injector = DependencyInjector()
        let screen = DependencyInjector.$current.withValue(injector) { ReportScreen() }
        guard case .failure(.notRegistered) = screen.$service else {
            Issue.record("expected notRegistered, got \(screen.$service)")
            return
        }

        injector.register(Service(label: "late"))
        #expect(try screen.$service.get().label == "late")
    }

    @Test func keptValuesOfEveryKindReadBackUnchanged() throws {
        let injector = DependencyInjector()
        injector.register(Foo("first") as any FooService)
        injector.register(Optional(7), as: Int?.self)
        injector.register(["a", "b"])
        let kinds = DependencyInjector.$current.withValue(injector) { Kinds() }

        for _ in 0..<2 {  // the first read resolves and keeps; the second reads what was kept
            #expect(kinds.foo.message() == "first")
            #expect(kinds.maybe == 7)
            #expect(kinds.pair == ["a", "b"])
        }
        kinds.foo = Foo("stub")
        kinds.maybe = nil
        #expect(kinds.foo.message() == "stub")
        #expect(kinds.maybe == nil)
        #expect(try kinds.$maybe.get() == nil)
    }

    @Test func assigningReplacesTheValue() {
        let screen = DependencyInjector.$current.withValue(DependencyInjector()) { ReportScreen() }
        screen.service = Service(label: "stub")
        #expect(screen.service.label == "stub")
    }

    /// An assignment releases the value it replaced (once no other thread is reading it), so
    /// assigning breaks a cycle through the old value and a long-lived object holds one value;
    /// the first value, resolved, goes with the object at the latest. (Catches: replaced values
    /// kept until the object goes, which leaked an object whose value pointed back at it.)
    @Test func anAssignmentReleasesTheValueItReplaced() {
        final class Tracked: @unchecked Sendable {
            let released: Counter
            var owner: AnyObject?
            init(released: Counter, owner: AnyObject? = nil) {
                self.released = released
                self.owner = owner
            }
            deinit { released.increment() }
        }
        final class Owner {
            @LazyInject var value: Tracked
            init(injector: DependencyInjector) { _value = LazyInject(injector: injector) }
        }
        let released = Counter()
        let injector = DependencyInjector()
        injector.register(Tracked.self) { _ in Tracked(released: released) }
        weak var weakOwner: Owner?
        do {
            let owner = Owner(injector: injector)
            weakOwner = owner
            _ = owner.value  // the first value, resolved
            owner.value = Tracked(released: released, owner: owner)  // a cycle
            for _ in 0..<1_000 { owner.value = Tracked(released: released) }  // broken by the first
            #expect(released.value == 1_000)
        }
        #expect(weakOwner == nil)
        #expect(released.value == 1_002)
    }

    @Test func eightThreadsReadingForTheFirstTimeResolveOnce() {
        for _ in 0..<20 {
            let injector = DependencyInjector()
            let calls = Counter()
            injector.register(Service.self) { _ in
                calls.increment()
                usleep(1_000)  // keeps the first resolution in flight while the others arrive
                return Service()
            }
            let screen = DependencyInjector.$current.withValue(injector) { ReportScreen() }
            let seen = Collected<Service>()
            runOnThreads(8) { _ in seen.append(screen.service) }

            #expect(calls.value == 1)
            #expect(seen.values.count == 8)
            #expect(seen.values.allSatisfy { $0 === seen.values.first })
        }
    }

    @Test func breaksACycleBetweenTwoTypes() throws {
        let injector = DependencyInjector()
        injector.register(Ping.self, scope: .singleton) { _ in Ping() }
        injector.register(Pong.self) { _ in Pong() }

        let ping = try injector.resolve(Ping.self)
        #expect(ping.pong.ping === ping)
    }

    @Test func keepsItsFirstValueAndAnAssignment() throws {
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

    @Test func retriesAfterAFailureAndReportsAReadOfItselfAsACycle() throws {
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
}
