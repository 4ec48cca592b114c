import Injector
import Testing

private final class Dashboard {
    @OptionalInject var greeter: (any Greeter)?
    @OptionalInject(name: "motto") var motto: String?
}

private struct Broken {}

private final class BrokenOwner {
    @OptionalInject var broken: Broken?
}

@Suite struct OptionalInjectTests {
    @Test func isNilWhenNothingIsRegistered() {
        let dashboard = DependencyInjector.$current.withValue(DependencyInjector()) { Dashboard() }
        #expect(dashboard.greeter == nil)
        #expect(dashboard.motto == nil)
        guard case .success(nil) = dashboard.$greeter else {
            Issue.record("expected success(nil), got \(dashboard.$greeter)")
            return
        }
    }

    @Test func holdsTheValueWhenRegistered() {
        let injector = DependencyInjector()
        injector.register(FrenchGreeter() as any Greeter)
        injector.register("Carpe diem", name: "motto")

        let dashboard = DependencyInjector.$current.withValue(injector) { Dashboard() }
        #expect(dashboard.greeter?.greet() == "Bonjour")
        #expect(dashboard.motto == "Carpe diem")
    }

    @Test func aFailingFactoryIsNilButTheErrorIsKept() {
        let injector = DependencyInjector()
        injector.register(Broken.self) { _ in throw SampleError(code: 7) }

        let owner = DependencyInjector.$current.withValue(injector) { BrokenOwner() }
        #expect(owner.broken == nil)
        guard case .failure(.factoryFailed(let key, _, let underlying)) = owner.$broken else {
            Issue.record("expected factoryFailed, got \(owner.$broken)")
            return
        }
        #expect(key == DependencyKey(Broken.self))
        #expect(underlying as? SampleError == SampleError(code: 7))
    }

    @Test func aMissingDependencyOfARegisteredTypeIsAnErrorNotAbsence() {
        let injector = DependencyInjector()
        injector.register(Broken.self) { r in
            _ = try r.resolve(Service.self)
            return Broken()
        }

        let owner = DependencyInjector.$current.withValue(injector) { BrokenOwner() }
        #expect(owner.broken == nil)
        guard case .failure(.notRegistered(let key, _, _)) = owner.$broken else {
            Issue.record("expected notRegistered, got \(owner.$broken)")
            return
        }
        #expect(key == DependencyKey(Service.self))
    }

    @Test func isNilOnlyWhenNothingIsRegistered() {
        let parent = DependencyInjector()
        let child = parent.child()
        struct Owner {
            @OptionalInject var service: Service?
            init(injector: DependencyInjector) { _service = OptionalInject(injector: injector) }
        }
        #expect(Owner(injector: child).service == nil)
        guard case .success(nil) = Owner(injector: child).$service else {
            Issue.record("expected success(nil)")
            return
        }

        parent.register(Service(label: "parent"))
        #expect(Owner(injector: child).service?.label == "parent")

        // Registered but broken: nil, with the error kept.
        child.register(Service.self) { _ in throw SampleError(code: 7) }
        let broken = Owner(injector: child)
        #expect(broken.service == nil)
        guard case .failure(.factoryFailed(_, _, let underlying)) = broken.$service else {
            Issue.record("expected factoryFailed, got \(broken.$service)")
            return
        }
        #expect(underlying as? SampleError == SampleError(code: 7))

        // Registered, with a dependency missing: the error names the missing dependency.
        child.register(Dependent.self) { r in try Dependent(service: r.resolve(name: "missing")) }
        struct DependentOwner {
            @OptionalInject var dependent: Dependent?
            init(injector: DependencyInjector) { _dependent = OptionalInject(injector: injector) }
        }
        guard case .failure(.notRegistered(let key, _, _)) = DependentOwner(injector: child).$dependent else {
            Issue.record("expected notRegistered of the dependency")
            return
        }
        #expect(key == DependencyKey(Service.self, name: "missing"))
    }
}

private final class ServiceOwner {
    @OptionalInject var service: Service?
}

extension OptionalInjectTests {
    /// A created singleton is read without the registration check; the value must still be
    /// the one `resolve` gives, and `nil` once it is gone, whatever happened to the key before.
    @Test func holdsWhatResolveGivesAfterTheRegistrationChanges() throws {
        let injector = DependencyInjector()
        func owner() -> ServiceOwner { DependencyInjector.$current.withValue(injector) { ServiceOwner() } }

        injector.register(Service.self, scope: .singleton) { _ in Service() }
        let first = try injector.resolve(Service.self)
        #expect(owner().service === first)

        injector.unregister(Service.self)
        #expect(owner().service == nil)

        let replacement = Service()
        injector.register(replacement)
        #expect(owner().service === replacement)

        let child = injector.child()
        let inChild = DependencyInjector.$current.withValue(child) { ServiceOwner() }
        #expect(inChild.service === replacement)

        injector.register(Service.self) { _ in Service() }  // transient: a new one each time
        let made = owner().service
        #expect(made != nil && made !== replacement)
    }
}
