import Injector
import Testing

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
}
