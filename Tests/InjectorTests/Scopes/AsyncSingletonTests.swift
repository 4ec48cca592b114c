import Injector
import Testing

/// Single-flight singletons: one creation, however many tasks ask first.
@Suite struct AsyncSingletonTests {
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)  // `.timeLimit` takes a `Duration`
    @Test(.timeLimit(.minutes(1)))
    func twoHundredConcurrentFirstResolvesRunTheSlowFactoryOnce() async throws {
        let injector = AsyncDependencyInjector()
        let calls = Counter()
        await injector.register(Service.self, scope: .singleton) { _ in
            calls.increment()
            try await Task.sleep(nanoseconds: 50_000_000)  // keeps the creation in flight
            return Service(label: "slow")
        }

        let services = try await withThrowingTaskGroup(of: Service.self) { group in
            for _ in 0..<200 {
                group.addTask { try await injector.resolve(Service.self) }
            }
            return try await group.reduce(into: [Service]()) { $0.append($1) }
        }

        #expect(calls.value == 1)
        #expect(services.count == 200)
        #expect(Set(services.map(ObjectIdentifier.init)).count == 1)
        #expect(try await injector.resolve(Service.self) === services.first)
    }

    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)  // `.timeLimit` takes a `Duration`
    @Test(.timeLimit(.minutes(1)))
    func aFailingCreationFailsEveryWaiterKeepsNothingAndTheNextResolveRetries() async throws {
        let injector = AsyncDependencyInjector()
        let calls = Counter()
        let release = AsyncGate()
        await injector.register(Service.self, scope: .singleton) { _ in
            if calls.increment() == 1 {
                await release.wait()
                throw SampleError(code: 503)
            }
            return Service(label: "second try")
        }

        let waiters = 20
        let errors = try await withThrowingTaskGroup(of: InjectionError?.self) { group in
            for _ in 0..<waiters {
                group.addTask { await injectionError { try await injector.resolve(Service.self) } }
            }
            try await untilWaiting(waiters, for: Service.self, in: injector)
            release.open()
            return try await group.reduce(into: [InjectionError?]()) { $0.append($1) }
        }

        #expect(errors.count == waiters)
        for error in errors {
            guard case .factoryFailed(let key, let path, let underlying) = error else {
                Issue.record("expected factoryFailed, got \(String(describing: error))")
                continue
            }
            #expect(key == DependencyKey(Service.self))
            #expect(path == [DependencyKey(Service.self)])
            #expect(underlying as? SampleError == SampleError(code: 503))
        }
        #expect(calls.value == 1)

        let service = try await injector.resolve(Service.self)
        #expect(service.label == "second try")
        #expect(try await injector.resolve(Service.self) === service)
        #expect(calls.value == 2)
    }

    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)  // `.timeLimit` takes a `Duration`
    @Test(.timeLimit(.minutes(1)))
    func theInjectorKeepsServingWhileACreationIsSuspended() async throws {
        let injector = AsyncDependencyInjector()
        let started = AsyncGate()
        let release = AsyncGate()
        await injector.register(Service.self, scope: .singleton) { _ in
            started.open()
            await release.wait()
            return Service()
        }
        await injector.register(Int.self) { _ in 42 }

        let pending = Task { try await injector.resolve(Service.self) }
        await started.wait()
        // The actor is not blocked by the suspended factory: other work goes on.
        #expect(try await injector.resolve(Int.self) == 42)
        await injector.register(String.self) { _ in "registered meanwhile" }
        #expect(try await injector.resolve(String.self) == "registered meanwhile")

        release.open()
        _ = try await pending.value
    }

    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)  // `.timeLimit` takes a `Duration`
    @Test(.timeLimit(.minutes(1)))
    func aRegistrationReplacedDuringItsCreationIsNotKept() async throws {
        let injector = AsyncDependencyInjector()
        let started = AsyncGate()
        let release = AsyncGate()
        await injector.register(Service.self, scope: .singleton) { _ in
            started.open()
            await release.wait()
            return Service(label: "old")
        }

        let pending = Task { try await injector.resolve(Service.self) }
        await started.wait()
        await injector.register(Service.self, scope: .singleton) { _ in Service(label: "new") }
        release.open()

        // The waiter gets what it waited for; the cache belongs to the new registration.
        #expect(try await pending.value.label == "old")
        let current = try await injector.resolve(Service.self)
        #expect(current.label == "new")
        #expect(try await injector.resolve(Service.self) === current)
    }

    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)  // `.timeLimit` takes a `Duration`
    @Test(.timeLimit(.minutes(1)))
    func concurrentResolvesOfAnAcyclicChainOfSingletonsFindNoFalseCycle() async throws {
        for _ in 0..<20 {
            let injector = AsyncDependencyInjector()
            await injector.register(NodeC.self, scope: .singleton) { _ in
                try await Task.sleep(nanoseconds: 1_000_000)
                return NodeC()
            }
            await injector.register(NodeB.self, scope: .singleton) { r in
                _ = try await r.resolve(NodeC.self)
                return NodeB()
            }
            await injector.register(NodeA.self) { r in
                _ = try await r.resolve(NodeB.self)
                return NodeA()
            }
            let failures = await withTaskGroup(of: Int.self) { group in
                for index in 0..<16 {
                    group.addTask {
                        // Start at different points of the chain.
                        let error: InjectionError? =
                            switch index % 3 {
                            case 0: await injectionError { try await injector.resolve(NodeA.self) }
                            case 1: await injectionError { try await injector.resolve(NodeB.self) }
                            default: await injectionError { try await injector.resolve(NodeC.self) }
                            }
                        return error == nil ? 0 : 1
                    }
                }
                return await group.reduce(0, +)
            }
            #expect(failures == 0)
        }
    }

    /// Regression: a waiter asked again when the creation failed with a `CancellationError`,
    /// as if the creator had been cancelled; a singleton's creation has a task of its own,
    /// which nobody cancels, so the error is its factory's and the factory ran twice.
    @Test(.timeLimit(.minutes(1)))
    func aFactoryThatThrowsCancellationErrorRunsOnceAndItsWaitersGetTheError() async throws {
        let injector = AsyncDependencyInjector()
        let calls = Counter()
        let started = AsyncGate()
        let release = AsyncGate()
        await injector.register(Service.self, scope: .singleton) { _ in
            _ = calls.increment()
            started.open()
            await release.wait()
            throw CancellationError()
        }
        let creator = Task { try await injector.resolve(Service.self) }
        await started.wait()
        let waiter = Task { try await injector.resolve(Service.self) }
        try await untilWaiting(2, for: Service.self, in: injector)
        release.open()
        await #expect(throws: InjectionError.self) { try await creator.value }
        await #expect(throws: InjectionError.self) { try await waiter.value }
        #expect(calls.value == 1)
    }
}
