import Injector
import Testing

/// Nothing the injector touches outlives what owns it.
@Suite struct LeakTests {
    @Test func anInjectorThatGoesAwayReleasesItsSingletonsAndFactories() throws {
        weak var singleton: Probe?
        weak var instance: Probe?
        weak var captured: Probe?
        weak var injectorReference: DependencyInjector?
        do {
            let injector = DependencyInjector()
            let capturedByFactory = Probe(id: 3)
            injector.register(Probe.self, scope: .singleton) { _ in Probe(id: capturedByFactory.id) }
            injector.register(Probe(id: 2), name: "instance")
            singleton = try injector.resolve(Probe.self)
            instance = try injector.resolve(Probe.self, name: "instance")
            captured = capturedByFactory
            injectorReference = injector
            #expect(singleton != nil)
        }
        #expect(injectorReference == nil)
        #expect(singleton == nil)
        #expect(instance == nil)
        #expect(captured == nil)
    }

    @Test func factoriesThatUseTheirParameterMakeNoRetainCycle() throws {
        weak var injectorReference: DependencyInjector?
        do {
            let injector = DependencyInjector()
            injector.register(Probe(id: 1))
            injector.register(String.self, scope: .singleton) { r in "probe \(try r.resolve(Probe.self).id)" }
            _ = try injector.resolve(String.self)
            injectorReference = injector
        }
        #expect(injectorReference == nil)
    }

    @Test func aChildDoesNotKeepItsParentsSingletonsAliveAfterBothGo() throws {
        weak var singleton: Probe?
        do {
            let parent = DependencyInjector()
            parent.register(Probe.self, scope: .singleton) { _ in Probe() }
            let child = parent.child()
            singleton = try child.resolve(Probe.self)
        }
        #expect(singleton == nil)
    }

    @Test func wrappersDoNotKeepTheInjectorAliveBeyondTheirOwner() throws {
        final class Owner {
            @Inject var probe: Probe
            @LazyInject var lazyProbe: Probe
        }
        weak var injectorReference: DependencyInjector?
        weak var probe: Probe?
        do {
            let injector = DependencyInjector()
            injector.register(Probe.self, scope: .singleton) { _ in Probe() }
            let owner = DependencyInjector.$current.withValue(injector) { Owner() }
            probe = owner.lazyProbe
            injectorReference = injector
        }
        #expect(injectorReference == nil)
        #expect(probe == nil)
    }

    @Test func aWeakInstanceGoesAwayWithItsLastOwner() throws {
        let injector = DependencyInjector()
        injector.register(Probe.self, scope: .weak) { _ in Probe() }
        weak var released: Probe?
        do {
            let owner = try injector.resolve(Probe.self)
            released = owner
            #expect(try injector.resolve(Probe.self) === owner)
        }
        #expect(released == nil)
    }

    @Test func aFailedResolutionLeavesNoStateBehind() throws {
        weak var injectorReference: DependencyInjector?
        do {
            let injector = DependencyInjector()
            injector.register(Probe.self, scope: .singleton) { _ in throw CancellationError() }
            injector.register(String.self) { r in
                _ = try r.resolve(String.self)
                return ""
            }
            _ = try? injector.resolve(Probe.self)
            _ = try? injector.resolve(String.self)
            injectorReference = injector
        }
        #expect(injectorReference == nil)
    }
}
