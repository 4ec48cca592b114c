import Injector
import Testing

/// `AsyncDependencyInjector.current` scopes the way `DependencyInjector.current` does.
@Suite struct AsyncCurrentTests {
    @Test func currentIsTheSharedInjectorOutsideAnyScope() {
        #expect(AsyncDependencyInjector.current === AsyncDependencyInjector.shared)
    }

    @Test func aScopeBindsCurrentForItsTasksAndEndsWithIt() async throws {
        let injector = AsyncDependencyInjector()
        await injector.register(Service(label: "scoped"))

        try await AsyncDependencyInjector.$current.withValue(injector) {
            let service = try await AsyncDependencyInjector.current.resolve(Service.self)
            #expect(service.label == "scoped")
            #expect(await Task { AsyncDependencyInjector.current }.value === injector)
            async let fromChildTask = AsyncDependencyInjector.current
            #expect(await fromChildTask === injector)
        }
        #expect(AsyncDependencyInjector.current === AsyncDependencyInjector.shared)
        #expect(await !AsyncDependencyInjector.shared.isRegistered(Service.self))
    }

    @Test(arguments: 1...10)
    func parallelScopesSeeOnlyTheirOwnRegistrations(_ number: Int) async throws {
        try await AsyncDependencyInjector.$current.withValue(AsyncDependencyInjector.shared.child()) {
            await AsyncDependencyInjector.current.register(number, name: "number")
            try await Task.sleep(nanoseconds: UInt64.random(in: 1...10) * 1_000_000)
            #expect(try await AsyncDependencyInjector.current.resolve(Int.self, name: "number") == number)
        }
    }

    @Test func aFactoryRunsWithTheInjectorThatBuildsItAsCurrent() async throws {
        let parent = AsyncDependencyInjector()
        let child = parent.child()
        let seen = Collected<ObjectIdentifier>()
        await parent.register(Service.self) { _ in
            seen.append(ObjectIdentifier(AsyncDependencyInjector.current))
            return Service()
        }
        await parent.register(Dependent.self, scope: .singleton) { _ in
            seen.append(ObjectIdentifier(AsyncDependencyInjector.current))
            return Dependent(service: Service())
        }

        // A transient found in the parent is built by the child; a singleton by the parent.
        _ = try await child.resolve(Service.self)
        _ = try await child.resolve(Dependent.self)
        #expect(seen.values == [ObjectIdentifier(child), ObjectIdentifier(parent)])
    }
}
