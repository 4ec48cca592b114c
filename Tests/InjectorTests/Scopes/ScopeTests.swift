import Injector
import Testing

/// A value whose initialiser starts a task that outlives it (a background loop a service
/// starts), waiting until `gate` finishes. The task does not capture the value.
private final class StartsATask: Sendable {
    init(gate: AsyncStream<Void>) {
        Task { for await _ in gate {} }
    }
}

@Suite struct ScopeTests {
    @Test func transientMakesANewValueOnEveryResolve() throws {
        let injector = DependencyInjector()
        injector.register(Service.self) { _ in Service() }

        #expect(try injector.resolve(Service.self) !== injector.resolve(Service.self))
    }

    @Test func singletonIsCreatedOnFirstResolveAndKept() throws {
        let injector = DependencyInjector()
        let calls = Counter()
        injector.register(Service.self, scope: .singleton) { _ in
            calls.increment()
            return Service()
        }
        #expect(calls.value == 0)

        let first = try injector.resolve(Service.self)
        #expect(try injector.resolve(Service.self) === first)
        #expect(calls.value == 1)
    }

    @Test func weakIsSharedWhileHeldAndRecreatedAfterRelease() throws {
        let injector = DependencyInjector()
        let calls = Counter()
        injector.register(Service.self, scope: .weak) { _ in
            calls.increment()
            return Service()
        }

        var held: Service? = try injector.resolve(Service.self)
        #expect(try injector.resolve(Service.self) === held)
        #expect(calls.value == 1)

        weak let released = held
        held = nil
        #expect(released == nil)
        _ = try injector.resolve(Service.self)
        #expect(calls.value == 2)
    }

    @Test func weakOfAValueTypeBehavesAsTransient() throws {
        let injector = DependencyInjector()
        let calls = Counter()
        injector.register(Int.self, scope: .weak) { _ in calls.increment() }

        #expect(try injector.resolve(Int.self) == 1)
        #expect(try injector.resolve(Int.self) == 2)
    }

    @Test func instanceRegistrationIsAnExistingSingleton() throws {
        let injector = DependencyInjector()
        let service = Service()
        injector.register(service)

        #expect(try injector.resolve(Service.self) === service)
        #expect(try injector.resolve(Service.self) === service)
    }

    @Test func registeringAgainReplacesTheRegistrationAndItsSingleton() throws {
        let injector = DependencyInjector()
        injector.register(Service.self, scope: .singleton) { _ in Service(label: "first") }
        #expect(try injector.resolve(Service.self).label == "first")

        injector.register(Service.self, scope: .singleton) { _ in Service(label: "second") }
        #expect(try injector.resolve(Service.self).label == "second")
    }

    @Test func unregisterRemovesAndIgnoresMissingKeys() throws {
        let injector = DependencyInjector()
        injector.register(Service())
        #expect(injector.isRegistered(Service.self))

        injector.unregister(Service.self)
        injector.unregister(Service.self)
        injector.unregister(Int.self, name: "never registered")

        #expect(!injector.isRegistered(Service.self))
        #expect(throws: InjectionError.self) { try injector.resolve(Service.self) }
    }

    @Test func failingSingletonCachesNothingAndTheNextResolveRetries() throws {
        let injector = DependencyInjector()
        let calls = Counter()
        injector.register(Service.self, scope: .singleton) { _ in
            if calls.increment() == 1 { throw SampleError(code: 1) }
            return Service()
        }

        #expect(throws: InjectionError.self) { try injector.resolve(Service.self) }
        let recovered = try injector.resolve(Service.self)
        #expect(try injector.resolve(Service.self) === recovered)
        #expect(calls.value == 2)
    }

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
        try await injector.reset(.singleton)
        #expect(await released { weakHeld == nil })
    }
}
