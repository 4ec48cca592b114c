import Injector
import Testing

@Suite struct VerificationTests {
    /// Three independent problems (a missing service deep in the graph, a cycle through
    /// singletons, a failing factory) next to a healthy singleton that counts its factory's runs.
    private func brokenGraph(_ face: Face, singletonRuns: Counter) async -> FaceInjector {
        let injector = face.makeInjector()
        await injector.register(App.self, resolving: Checkout.self) { _ in App() }
        await injector.register(Checkout.self, resolving: (any PaymentService).self) { _ in Checkout() }
        await injector.register(NodeA.self, scope: .singleton, resolving: NodeB.self) { _ in NodeA() }
        await injector.register(NodeB.self, scope: .singleton, resolving: NodeA.self) { _ in NodeB() }
        await injector.register(Service.self) { throw SampleError(code: 7) }
        await injector.register(String.self, name: "baseURL", scope: .singleton) {
            singletonRuns.increment()
            return "https://example.com"
        }
        return injector
    }

    @Test(arguments: Face.allCases)
    func threeIndependentProblemsAreAllReportedAtOnce(face: Face) async {
        let singletonRuns = Counter()
        let injector = await brokenGraph(face, singletonRuns: singletonRuns)

        let error = await injector.verificationError()
        #expect(error?.failures.count == 3)
        #expect(error?.registrationCount == 6)
        #expect(
            error?.description == """
                Injector found 3 problems in 6 registrations:

                1. Injector could not resolve any InjectorTests.PaymentService: nothing is registered for it.
                   Resolution path: InjectorTests.App → InjectorTests.Checkout → any InjectorTests.PaymentService
                   To fix: register any InjectorTests.PaymentService before resolving it, \
                e.g. `injector.register((any InjectorTests.PaymentService).self) { r in … }`.

                2. Injector found a circular dependency: InjectorTests.NodeA → InjectorTests.NodeB → InjectorTests.NodeA.
                   To fix: break the cycle: let one of these types resolve the next one later \
                (with @LazyInject, or by resolving inside a method) instead of in its factory.

                3. Injector could not resolve InjectorTests.Service: its factory, a decorator or an initCompleted hook \
                threw InjectorTests.SampleError(code: 7).
                   To fix: make what is registered for InjectorTests.Service (its factory, decorators, initCompleted \
                hooks) succeed; the error above is its own.
                """
        )
        // The healthy singleton was built off to the side, once, and the real one not at all.
        #expect(singletonRuns.value == 1)
        #expect(await injector.registrations.allSatisfy { !$0.isCreated })
    }

    @Test func asyncFactoriesThatSuspendAreVerifiedWithTheirPaths() async {
        // The actor awaits its factories: each of these suspends before it fails.
        let injector = AsyncDependencyInjector()
        await injector.register(App.self) { r in
            await Task.yield()
            _ = try await r.resolve(Checkout.self)
            return App()
        }
        await injector.register(Checkout.self, scope: .singleton) { r in
            try await Task.sleep(nanoseconds: 1_000)
            _ = try await r.resolve((any PaymentService).self)
            return Checkout()
        }
        await injector.register(NodeA.self, scope: .singleton) { r in
            await Task.yield()
            _ = try await r.resolve(NodeB.self)
            return NodeA()
        }
        await injector.register(NodeB.self, scope: .singleton) { r in
            await Task.yield()
            _ = try await r.resolve(NodeC.self)
            return NodeB()
        }
        await injector.register(NodeC.self, scope: .singleton) { r in
            await Task.yield()
            _ = try await r.resolve(NodeA.self)
            return NodeC()
        }
        await injector.register(Service.self, scope: .singleton) { _ in
            await Task.yield()
            throw SampleError(code: 8)
        }

        let error = await #expect(throws: VerificationError.self) { try await injector.verify() }
        let failures = error?.failures ?? []
        #expect(failures.count == 3)
        guard failures.count == 3 else { return }
        guard case .notRegistered(let missing, let missingPath, _) = failures[0] else {
            Issue.record("expected notRegistered, got \(failures[0])")
            return
        }
        #expect(missing == DependencyKey((any PaymentService).self))
        #expect(missingPath == [DependencyKey(App.self), DependencyKey(Checkout.self), missing])
        #expect(cycleNames(failures[1]) == ["NodeA", "NodeB", "NodeC", "NodeA"])
        guard case .factoryFailed(let failing, let failingPath, let underlying) = failures[2] else {
            Issue.record("expected factoryFailed, got \(failures[2])")
            return
        }
        #expect(failing == DependencyKey(Service.self))
        #expect(failingPath == [DependencyKey(Service.self)])
        #expect(underlying as? SampleError == SampleError(code: 8))
        #expect(await injector.registrations.allSatisfy { !$0.isCreated })
    }

    @Test func verifyCalledFromInsideAnAsyncSingletonsFactoryReportsTheCycleItWouldRun() async throws {
        let injector = AsyncDependencyInjector()
        let innerFailures = Collected<[InjectionError]>()
        await injector.register(String.self, scope: .singleton) { r in
            do throws(VerificationError) {
                try await r.injector.verify()
                innerFailures.append([])
            } catch {
                innerFailures.append(error.failures)
            }
            return "built"
        }

        // The inner verify resolves String again within the creation of String: a cycle,
        // reported, not a wait that never ends.
        #expect(try await injector.resolve(String.self) == "built")
        #expect(innerFailures.values.map { $0.map(cycleNames) } == [[["String", "String"]]])

        // And verify itself, which runs the factory, which verifies again: still defined.
        try await injector.verify()
        #expect(innerFailures.values.count == 2)
    }

    @Test(arguments: Face.allCases)
    func aProblemReachedFromSeveralRegistrationsIsReportedOnceWithTheLongestPath(face: Face) async {
        let injector = face.makeInjector()
        await injector.register(App.self, resolving: Checkout.self) { _ in App() }
        await injector.register(Checkout.self, scope: .singleton, resolving: (any PaymentService).self) { _ in
            Checkout()
        }

        let error = await injector.verificationError()
        #expect(
            error?.failures.map(\.path) == [
                [DependencyKey(App.self), DependencyKey(Checkout.self), DependencyKey((any PaymentService).self)]
            ]
        )
    }

    @Test(arguments: Face.allCases)
    func verifyingAChildCreatesNoSingletonInItsAncestorsAndUsesItsOverrides(face: Face) async throws {
        let runs = Counter()
        let parent = face.makeInjector()
        await parent.register(Dependent.self, scope: .singleton, resolving: Service.self) { service in
            runs.increment()
            return Dependent(service: service)
        }
        let child = parent.child()
        await child.register(Service(label: "child"))

        try await child.verify()  // Service is registered only in the child: the child's view is complete
        #expect(runs.value == 1)
        #expect(await parent.registrations.map(\.isCreated) == [false])
        // But the parent's is not: its factory ran again, off to the side, and found nothing.
        let error = await parent.verificationError()
        #expect(error?.failures.map(\.path) == [[DependencyKey(Dependent.self), DependencyKey(Service.self)]])
        #expect(await parent.registrations.map(\.isCreated) == [false])

        await parent.register(Service(label: "parent"))
        #expect(try await child.resolve(Dependent.self).service.label == "parent")  // the real one, made now
    }

    @Test(arguments: Face.allCases)
    func aSingletonAlreadyCreatedIsBuiltAgainWithTheCurrentRegistrations(face: Face) async throws {
        let injector = face.makeInjector()
        await injector.register(Service(label: "first"))
        await injector.register(Dependent.self, scope: .singleton, resolving: Service.self) { Dependent(service: $0) }
        let created = try await injector.resolve(Dependent.self)

        await injector.unregister(Service.self)
        let error = await injector.verificationError()
        #expect(error?.failures.map(\.key) == [DependencyKey(Service.self)])
        #expect(try await injector.resolve(Dependent.self) === created)  // the real one is untouched
    }

    @Test(arguments: Face.allCases)
    func aHealthyGraphVerifiesWithoutCreatingAnything(face: Face) async throws {
        let runs = Counter()
        let injector = face.makeInjector()
        await injector.register(Service(label: "instance"))
        await injector.register(Dependent.self, scope: .singleton, resolving: Service.self) { service in
            runs.increment()
            return Dependent(service: service)
        }

        try await injector.verify()
        #expect(runs.value == 1)
        _ = try await injector.resolve(Dependent.self)
        #expect(runs.value == 2)
    }
}

/// An object whose factory succeeds but whose wrappers cannot resolve (issue 15, item 2).
final class CheckoutScreen {
    @Inject var greeter: any Greeter
    @OptionalInject var service: Service?
}

extension VerificationTests {
    /// `verify()` passed a graph whose objects could not be built: the failure sat in
    /// `$property` until someone read it and the program stopped.
    @Test func wrappersOfTheObjectsAFactoryBuildsReportTheirFailuresToVerify() {
        let injector = DependencyInjector()
        injector.register(Service.self) { _ in throw SampleError(code: 5) }  // broken, so not just absent
        injector.register(CheckoutScreen.self) { _ in CheckoutScreen() }

        let error = #expect(throws: VerificationError.self) { try injector.verify() }
        let failures = error?.failures ?? []
        let screen = DependencyKey(CheckoutScreen.self)
        #expect(
            failures.contains {
                guard case .notRegistered(let key, let path, _) = $0 else { return false }
                return key == DependencyKey((any Greeter).self) && path == [screen, key]
            })
        #expect(
            failures.contains {
                guard case .factoryFailed(let key, let path, _) = $0 else { return false }
                return key == DependencyKey(Service.self) && path == [screen, key]
            })
    }

    /// The actor face's `verify()` sees them too, with their paths, wherever its factories run.
    @Test func wrappersOfTheObjectsTheActorFaceBuildsReportTheirFailuresToVerify() async {
        let server = AsyncDependencyInjector()
        server.synchronous.register(Service.self) { _ in throw SampleError(code: 5) }
        server.synchronous.register(CheckoutScreen.self) { _ in CheckoutScreen() }

        let error = await #expect(throws: VerificationError.self) { try await server.verify() }
        let screen = DependencyKey(CheckoutScreen.self)
        #expect(
            error?.failures.contains {
                guard case .factoryFailed(let key, let path, _) = $0 else { return false }
                return key == DependencyKey(Service.self) && path == [screen, key]
            } == true)
    }

    @Test func wrappersThatResolveDoNotFailVerify() throws {
        let injector = DependencyInjector()
        injector.register(EnglishGreeter() as any Greeter)
        injector.register(CheckoutScreen.self) { _ in CheckoutScreen() }

        try injector.verify()
    }

    /// Over one core, the sync face's `verify()` leaves the actor face's async factories to
    /// the actor face's (it cannot run them), but still reports a synchronous factory that
    /// needs one, which cannot work on either face until that value exists.
    @Test func theSyncFacesVerifyLeavesAsyncFactoriesToTheActorFace() async throws {
        let server = AsyncDependencyInjector()
        await server.register(Service.self, scope: .singleton) { _ in
            await Task.yield()
            return Service()
        }
        server.synchronous.register((any Greeter).self) { _ in EnglishGreeter() }
        try server.synchronous.verify()
        try await server.verify()

        server.synchronous.register(Dependent.self) { r in try Dependent(service: r.resolve()) }
        let error = #expect(throws: VerificationError.self) { try server.synchronous.verify() }
        #expect(error?.failures.map(\.path) == [[DependencyKey(Dependent.self), DependencyKey(Service.self)]])
    }
}
