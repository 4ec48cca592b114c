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
    let makeChicken: ProviderHandle<Chicken>
    init(makeChicken: ProviderHandle<Chicken>) { self.makeChicken = makeChicken }
}

@Suite struct ProviderHandleTests {
    @Test(arguments: [Scope.transient, .singleton])
    func eachCallResolvesAccordingToTheScope(scope: Scope) throws {
        let injector = DependencyInjector()
        let calls = Counter()
        injector.register(Service.self, scope: scope) { _ in Service(label: "made \(calls.increment())") }

        let makeService = injector.provider(for: Service.self)
        #expect(calls.value == 0)  // nothing resolved until called
        let first = try makeService()
        let second = try makeService()
        #expect((first === second) == (scope == .singleton))
        #expect(calls.value == (scope == .singleton ? 1 : 2))
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

    @Test func aHandleBreaksACycle() throws {
        let injector = DependencyInjector()
        injector.register(Chicken.self, scope: .singleton) { r in try Chicken(egg: r.resolve()) }
        injector.register(Egg.self) { r in try Egg(makeChicken: r.resolve()) }

        let chicken = try injector.resolve(Chicken.self)
        #expect(try chicken.egg.makeChicken() === chicken)
    }

    @Test func aHandleResolvedByAChildResolvesFromTheChild() throws {
        let parent = DependencyInjector()
        parent.register(Service(label: "parent"))
        let child = parent.child()
        child.register(Service(label: "child"))

        #expect(try child.resolve(ProviderHandle<Service>.self)().label == "child")
    }
}
