import Injector
import Testing

struct AuthModule: FaceModule {
    func register(in injector: DependencyInjector) {
        injector.register(Service(label: "real auth"))
    }

    func register(in injector: AsyncDependencyInjector) async {
        await injector.register(Service(label: "real auth"))
    }
}

struct RogueModule: FaceModule {
    func register(in injector: DependencyInjector) {
        injector.register("rogue", name: "motto")
        injector.register(Service(label: "fake auth"))
    }

    func register(in injector: AsyncDependencyInjector) async {
        await injector.register("rogue", name: "motto")
        await injector.register(Service(label: "fake auth"))
    }
}

@Suite struct SealingTests {
    private func sealedInjector(_ face: Face) async throws -> FaceInjector {
        let injector = face.makeInjector()
        try await injector.install(AuthModule())
        await injector.seal()
        return injector
    }

    @Test(arguments: Face.allCases)
    func registerAndUnregisterLeaveTheRegistrationIntact(face: Face) async throws {
        let injector = try await sealedInjector(face)
        await injector.register(Service(label: "fake auth"))
        await injector.register(Service.self, scope: .singleton) { Service(label: "fake factory") }
        await injector.unregister(Service.self)
        await injector.register("new key", name: "motto")

        #expect(await injector.isSealed)
        #expect(try await injector.resolve(Service.self).label == "real auth")
        #expect(await !injector.isRegistered(String.self, name: "motto"))
    }

    @Test(arguments: Face.allCases)
    func installIntoASealedInjectorThrowsAndChangesNothing(face: Face) async throws {
        let injector = try await sealedInjector(face)
        let error = await injector.installError(RogueModule())
        guard case .sealed(let key) = error else {
            Issue.record("expected sealed, got \(String(describing: error))")
            return
        }
        #expect(key == DependencyKey(String.self, name: "motto"))
        #expect(
            error?.description == """
                Injector refused to change the registration of Swift.String named "motto": the injector is sealed.
                To fix: register it before calling seal(), or override it in a child injector \
                (`injector.child()`, `withOverrides`), which is not sealed.
                """
        )
        #expect(try await injector.resolve(Service.self).label == "real auth")
    }

    @Test(arguments: Face.allCases)
    func childrenAreNotSealed(face: Face) async throws {
        let injector = try await sealedInjector(face)
        let child = injector.child()
        await child.register(Service(label: "test double"))

        #expect(await !child.isSealed)
        #expect(try await child.resolve(Service.self).label == "test double")
        #expect(try await injector.resolve(Service.self).label == "real auth")
    }

    @Test func overridesStillOverride() throws {
        let injector = DependencyInjector()
        try injector.install(AuthModule())
        injector.seal()

        let overridden = try injector.withOverrides({ $0.register(Service(label: "override")) }) {
            try DependencyInjector.current.resolve(Service.self).label
        }
        #expect(overridden == "override")
        #expect(try injector.resolve(Service.self).label == "real auth")
    }

    @Test(arguments: Face.allCases)
    func aRefusedRegisterIsReportedToTheObserver(face: Face) async throws {
        let injector = try await sealedInjector(face)
        let events = Collected<String>()
        await injector.observe { events.append($0.description) }
        await injector.register(Service(label: "fake auth"))
        await injector.unregister(Service.self)

        #expect(
            events.values == [
                "InjectorTests.Service: register or unregister refused (the injector is sealed)",
                "InjectorTests.Service: register or unregister refused (the injector is sealed)",
            ]
        )
    }

    @Test(arguments: Face.allCases)
    func singletonsAreStillCreatedInASealedInjector(face: Face) async throws {
        let injector = face.makeInjector()
        await injector.register(Service.self, scope: .singleton) { Service() }
        await injector.seal()
        #expect(try await injector.resolve(Service.self) === injector.resolve(Service.self))
    }
}
