import Injector
import Testing

struct AuthModule: DependencyModule {
    func register(in injector: DependencyInjector) {
        injector.register(Service(label: "real auth"))
    }
}

struct RogueModule: DependencyModule {
    func register(in injector: DependencyInjector) {
        injector.register("rogue", name: "motto")
        injector.register(Service(label: "fake auth"))
    }
}

@Suite struct SealingTests {
    private func sealedInjector() throws -> DependencyInjector {
        let injector = DependencyInjector()
        try injector.install(AuthModule())
        injector.seal()
        return injector
    }

    @Test func registerAndUnregisterLeaveTheRegistrationIntact() throws {
        let injector = try sealedInjector()
        injector.register(Service(label: "fake auth"))
        injector.register(Service.self, scope: .singleton) { _ in Service(label: "fake factory") }
        injector.unregister(Service.self)
        injector.register("new key", name: "motto")

        #expect(injector.isSealed)
        #expect(try injector.resolve(Service.self).label == "real auth")
        #expect(!injector.isRegistered(String.self, name: "motto"))
    }

    @Test func installIntoASealedInjectorThrowsAndChangesNothing() throws {
        let injector = try sealedInjector()
        let error = #expect(throws: InjectionError.self) { try injector.install(RogueModule()) }
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
        #expect(try injector.resolve(Service.self).label == "real auth")
    }

    @Test func childrenAndOverridesStillOverride() throws {
        let injector = try sealedInjector()
        let child = injector.child()
        child.register(Service(label: "test double"))

        #expect(!child.isSealed)
        #expect(try child.resolve(Service.self).label == "test double")
        let overridden = try injector.withOverrides({ $0.register(Service(label: "override")) }) {
            try DependencyInjector.current.resolve(Service.self).label
        }
        #expect(overridden == "override")
        #expect(try injector.resolve(Service.self).label == "real auth")
    }

    @Test func aRefusedRegisterIsReportedToTheObserver() throws {
        let injector = try sealedInjector()
        let events = Collected<String>()
        injector.observe { events.append($0.description) }
        injector.register(Service(label: "fake auth"))
        injector.unregister(Service.self)

        #expect(
            events.values == [
                "InjectorTests.Service: register or unregister refused (the injector is sealed)",
                "InjectorTests.Service: register or unregister refused (the injector is sealed)",
            ]
        )
    }

    @Test func singletonsAreStillCreatedInASealedInjector() throws {
        let injector = DependencyInjector()
        injector.register(Service.self, scope: .singleton) { _ in Service() }
        injector.seal()
        #expect(try injector.resolve(Service.self) === injector.resolve(Service.self))
    }
}
