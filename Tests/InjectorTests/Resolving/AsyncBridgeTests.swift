import Injector
import Testing

/// `export(_:name:to:)` hands async-created values to a synchronous `DependencyInjector`.
@Suite struct AsyncBridgeTests {
    @Test func anExportedSingletonIsTheSameInstanceInTheSyncInjector() async throws {
        let services = AsyncDependencyInjector()
        await services.register(Service.self, scope: .singleton) { _ in
            try await Task.sleep(nanoseconds: 5_000_000)
            return Service(label: "database")
        }
        let sync = DependencyInjector()

        let exported = try await services.export(Service.self, to: sync)

        #expect(try sync.resolve(Service.self) === exported)
        #expect(try await services.resolve(Service.self) === exported)
    }

    @Test func anExportKeepsTheKeyProtocolAndName() async throws {
        let services = AsyncDependencyInjector()
        await services.register((any Greeter).self, name: "fr") { _ in FrenchGreeter() }
        let sync = DependencyInjector()

        try await services.export((any Greeter).self, name: "fr", to: sync)

        #expect(try sync.resolve((any Greeter).self, name: "fr").greet() == "Bonjour")
        #expect(!sync.isRegistered((any Greeter).self))
    }

    @Test func aFailedExportLeavesTheSyncInjectorUntouched() async {
        let services = AsyncDependencyInjector()
        await services.register(Service.self, scope: .singleton) { _ in throw SampleError(code: 1) }
        let sync = DependencyInjector()

        let error = await injectionError { try await services.export(Service.self, to: sync) }

        guard case .factoryFailed = error else {
            Issue.record("expected factoryFailed, got \(String(describing: error))")
            return
        }
        #expect(!sync.isRegistered(Service.self))
    }
}
