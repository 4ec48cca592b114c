import Injector
import Testing

@Suite struct VerificationTests {
    /// Three independent problems (a missing service deep in the graph, a cycle, a failing
    /// factory) next to a healthy singleton that counts its factory's runs.
    private func brokenGraph(singletonRuns: Counter) -> DependencyInjector {
        let injector = DependencyInjector()
        injector.register(App.self) { r in
            _ = try r.resolve(Checkout.self)
            return App()
        }
        injector.register(Checkout.self) { r in
            _ = try r.resolve((any PaymentService).self)
            return Checkout()
        }
        injector.register(NodeA.self, scope: .singleton) { r in
            _ = try r.resolve(NodeB.self)
            return NodeA()
        }
        injector.register(NodeB.self, scope: .singleton) { r in
            _ = try r.resolve(NodeA.self)
            return NodeB()
        }
        injector.register(Service.self) { _ in throw SampleError(code: 7) }
        injector.register(String.self, name: "baseURL", scope: .singleton) { _ in
            singletonRuns.increment()
            return "https://example.com"
        }
        return injector
    }

    @Test func threeIndependentProblemsAreAllReportedAtOnce() {
        let singletonRuns = Counter()
        let injector = brokenGraph(singletonRuns: singletonRuns)

        let error = #expect(throws: VerificationError.self) { try injector.verify() }
        #expect(error?.failures.count == 3)
        #expect(error?.registrationCount == 6)
        #expect(
            error?.description == """
                Injector found 3 problems in 6 registrations:

                1. Injector could not resolve InjectorTests.PaymentService: nothing is registered for it.
                   Resolution path: InjectorTests.App → InjectorTests.Checkout → InjectorTests.PaymentService
                   To fix: register InjectorTests.PaymentService before resolving it, \
                e.g. `injector.register(InjectorTests.PaymentService.self) { r in … }`.

                2. Injector found a circular dependency: InjectorTests.NodeA → InjectorTests.NodeB → InjectorTests.NodeA.
                   To fix: break the cycle: let one of these types resolve the next one later \
                (with @LazyInject, or by resolving inside a method) instead of in its factory.

                3. Injector could not resolve InjectorTests.Service: its factory threw InjectorTests.SampleError(code: 7).
                   To fix: make the factory registered for InjectorTests.Service succeed; the error above is its own.
                """
        )
        // The healthy singleton was built off to the side, once, and the real one not at all.
        #expect(singletonRuns.value == 1)
        #expect(injector.registrations.allSatisfy { !$0.isCreated })
    }

    @Test func aProblemReachedFromSeveralRegistrationsIsReportedOnceWithTheLongestPath() {
        let injector = DependencyInjector()
        injector.register(App.self) { r in
            _ = try r.resolve(Checkout.self)
            return App()
        }
        injector.register(Checkout.self, scope: .singleton) { r in
            _ = try r.resolve((any PaymentService).self)
            return Checkout()
        }

        let error = #expect(throws: VerificationError.self) { try injector.verify() }
        #expect(
            error?.failures.map(\.path) == [
                [DependencyKey(App.self), DependencyKey(Checkout.self), DependencyKey((any PaymentService).self)]
            ]
        )
    }

    @Test func verifyingAChildCreatesNoSingletonInItsAncestorsAndUsesItsOverrides() throws {
        let runs = Counter()
        let parent = DependencyInjector()
        parent.register(Dependent.self, scope: .singleton) { r in
            runs.increment()
            return try Dependent(service: r.resolve())
        }
        let child = parent.child()
        child.register(Service(label: "child"))

        try child.verify()  // Service is registered only in the child: the child's view is complete
        #expect(runs.value == 1)
        #expect(parent.registrations.map(\.isCreated) == [false])
        #expect(throws: VerificationError.self) { try parent.verify() }  // but the parent's is not
        #expect(runs.value == 2)
        #expect(parent.registrations.map(\.isCreated) == [false])

        parent.register(Service(label: "parent"))
        #expect(try child.resolve(Dependent.self).service.label == "parent")  // the real one, made now
    }

    @Test func aSingletonAlreadyCreatedIsBuiltAgainWithTheCurrentRegistrations() throws {
        let injector = DependencyInjector()
        injector.register(Service(label: "first"))
        injector.register(Dependent.self, scope: .singleton) { r in try Dependent(service: r.resolve()) }
        let created = try injector.resolve(Dependent.self)

        injector.unregister(Service.self)
        let error = #expect(throws: VerificationError.self) { try injector.verify() }
        #expect(error?.failures.map(\.key) == [DependencyKey(Service.self)])
        #expect(try injector.resolve(Dependent.self) === created)  // the real one is untouched
    }

    @Test func aHealthyGraphVerifiesWithoutCreatingAnything() throws {
        let runs = Counter()
        let injector = DependencyInjector()
        injector.register(Service(label: "instance"))
        injector.register(Dependent.self, scope: .singleton) { r in
            runs.increment()
            return try Dependent(service: r.resolve())
        }

        try injector.verify()
        #expect(runs.value == 1)
        _ = try injector.resolve(Dependent.self)
        #expect(runs.value == 2)
    }
}
