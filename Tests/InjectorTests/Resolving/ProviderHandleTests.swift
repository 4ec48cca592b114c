import Injector
import Testing

private final class LoginFlow {
    @Inject var makeService: ProviderHandle<Service>
    @Inject(name: "motto") var makeMotto: ProviderHandle<String>
}

/// `Chicken` needs `Egg` and `Egg` needs `Chicken`: the handle breaks the cycle.
private final class Chicken: Sendable {
    let egg: Egg
    init(egg: Egg) { self.egg = egg }
}

private final class Egg: Sendable {
    let makeChicken: FaceProvider<Chicken>
    init(makeChicken: FaceProvider<Chicken>) { self.makeChicken = makeChicken }
}

@Suite struct ProviderHandleTests {
    @Test(arguments: Face.allCases, [Scope.transient, .singleton])
    func eachCallResolvesAccordingToTheScope(face: Face, scope: Scope) async throws {
        let injector = face.makeInjector()
        let calls = Counter()
        await injector.register(Service.self, scope: scope) { Service(label: "made \(calls.increment())") }

        let makeService = injector.provider(for: Service.self)
        #expect(calls.value == 0)  // nothing resolved until called
        let first = try await makeService()
        let second = try await makeService()
        #expect((first === second) == (scope == .singleton))
        #expect(calls.value == (scope == .singleton ? 1 : 2))
    }

    @Test(arguments: Face.allCases)
    func aHandleResolvesWhatIsRegisteredWhenItIsCalled(face: Face) async throws {
        let injector = face.makeInjector()
        let makeMotto = injector.provider(for: String.self, name: "motto")
        let makeService = try await injector.resolveProvider(for: Service.self)  // no registration of its own
        await #expect(throws: InjectionError.self) { try await makeService() }

        await injector.register(Service(label: "later"))
        await injector.register("Be kind", name: "motto")
        #expect(try await makeService().label == "later")
        #expect(try await makeMotto() == "Be kind")
    }

    @Test func anInjectedHandleNeedsNoRegistrationOfItsOwn() throws {
        let injector = DependencyInjector()
        let flow = DependencyInjector.$current.withValue(injector) { LoginFlow() }
        #expect(throws: InjectionError.self) { try flow.makeService() }

        injector.register(Service(label: "later"))
        injector.register("Be kind", name: "motto")
        #expect(try flow.makeService().label == "later")
        #expect(try flow.makeMotto() == "Be kind")
    }

    @Test(arguments: Face.allCases)
    func aHandleBreaksACycle(face: Face) async throws {
        let injector = face.makeInjector()
        await injector.register(Chicken.self, scope: .singleton, resolving: Egg.self) { Chicken(egg: $0) }
        await injector.register(Egg.self, resolvingProviderOf: Chicken.self) { Egg(makeChicken: $0) }

        let chicken = try await injector.resolve(Chicken.self)
        #expect(try await chicken.egg.makeChicken() === chicken)
    }

    @Test(arguments: Face.allCases)
    func aHandleResolvedByAChildResolvesFromTheChild(face: Face) async throws {
        let parent = face.makeInjector()
        await parent.register(Service(label: "parent"))
        let child = parent.child()
        await child.register(Service(label: "child"))

        #expect(try await child.resolveProvider(for: Service.self)().label == "child")
    }
}
