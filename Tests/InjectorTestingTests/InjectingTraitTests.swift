import Injector
import InjectorTesting
import TestSupport
import Testing

/// A hundred test cases run in parallel, each registering its own mock under the same key, on
/// each face.
@Suite(.injecting())
struct ParallelIsolationTests {
    @Test(arguments: 0..<100)
    func eachCaseSeesOnlyItsOwnMock(id: Int) async throws {
        DependencyInjector.current.register(MockPayments(id: id) as any PaymentService)
        for _ in 0..<5 {
            await Task.yield()  // let the other cases interleave between registration and use
            #expect(Checkout().pay() == "mock \(id) charged 100")
        }
    }

    @Test(arguments: 0..<100)
    func eachCaseSeesOnlyItsOwnAsyncMock(id: Int) async throws {
        await AsyncDependencyInjector.current.register(MockMailer(id: id) as any Mailer)
        for _ in 0..<5 {
            await Task.yield()  // let the other cases interleave between registration and use
            #expect(try await signUp() == "mock \(id) sent")
        }
    }

    @Test func nothingLeaksIntoShared() async {
        #expect(!DependencyInjector.shared.isRegistered((any PaymentService).self))
        #expect(DependencyInjector.current !== DependencyInjector.shared)
        #expect(DependencyInjector.current.parent === DependencyInjector.shared)
        #expect(await !AsyncDependencyInjector.shared.isRegistered((any Mailer).self))
        #expect(AsyncDependencyInjector.current !== AsyncDependencyInjector.shared)
        #expect(AsyncDependencyInjector.current.parent === AsyncDependencyInjector.shared)
    }
}

/// The trait opens one test scope for both faces, over the one root they share.
@Suite struct OneScopeForBothFacesTests {
    @Test(
        .injecting {
            $0.register(MockPayments(id: 7) as any PaymentService)
        } async: {
            await $0.register(MockMailer(id: 8) as any Mailer)
        })
    func whatEitherConfigurationRegistersEitherFaceResolves() async throws {
        #expect(AsyncDependencyInjector.current.synchronous === DependencyInjector.current)
        #expect(
            try await AsyncDependencyInjector.current.resolve((any PaymentService).self).charge(1) == "mock 7 charged 1"
        )
        #expect(try DependencyInjector.current.resolve((any Mailer).self) is MockMailer)
        #expect(try await signUp() == "mock 8 sent")
    }

    @Test(.injecting()) func aRegistrationInTheTestThroughOneFaceIsSeenByTheOther() async throws {
        await AsyncDependencyInjector.current.register(MockMailer(id: 9) as any Mailer)
        #expect(try DependencyInjector.current.resolve((any Mailer).self) is MockMailer)
        #expect(!DependencyInjector.shared.isRegistered((any Mailer).self))
    }
}

@Suite(
    .injecting {
        $0.register(MockPayments(id: 1) as any PaymentService)
    } async: {
        await $0.register(MockMailer(id: 1) as any Mailer)
    })
struct SuiteLevelTraitTests {
    @Test func theSuitesRegistrationsReachEveryTest() async throws {
        #expect(Checkout().pay() == "mock 1 charged 100")
        #expect(try await signUp() == "mock 1 sent")
    }

    @Test(.injecting { $0.register(MockPayments(id: 2) as any PaymentService) })
    func aTestsOwnTraitNestsInsideTheSuitesAndWins() async throws {
        #expect(Checkout().pay() == "mock 2 charged 100")
        #expect(DependencyInjector.current.parent?.isRegistered((any PaymentService).self) == true)
        #expect(try await signUp() == "mock 1 sent")  // the suite's, seen through the test's scope
    }

    @Test(.injecting(async: { await $0.register(MockMailer(id: 2) as any Mailer) }))
    func aTestsOwnAsyncTraitNestsInsideTheSuitesAndWins() async throws {
        #expect(try await signUp() == "mock 2 sent")
        #expect(await AsyncDependencyInjector.current.parent?.isRegistered((any Mailer).self) == true)
        #expect(Checkout().pay() == "mock 1 charged 100")
    }

    @Test func childTasksInheritTheTestsInjectors() async throws {
        async let fromChildTask = Checkout().pay()
        async let asyncFromChildTask = signUp()
        let fromUnstructuredTask = await Task { Checkout().pay() }.value
        let asyncFromUnstructuredTask = try await Task { try await signUp() }.value
        #expect(await fromChildTask == "mock 1 charged 100")
        #expect(fromUnstructuredTask == "mock 1 charged 100")
        #expect(try await asyncFromChildTask == "mock 1 sent")
        #expect(asyncFromUnstructuredTask == "mock 1 sent")
    }
}

@Test(.injecting { $0.register(MockPayments(id: 3) as any PaymentService) })
func aConfiguredTraitOnAFreeFunction() {
    #expect(Checkout().pay() == "mock 3 charged 100")
}

@Test(.injecting(async: { _ in #expect(DependencyInjector.current !== DependencyInjector.shared) }))
func theAsyncConfigurationRunsInsideTheTestsSyncScope() {}

/// A strict mode's app that registers `Pool` as a singleton, counting what it makes and tears
/// down, and makes one, as an install's eager singleton is made.
private func appMakingAPool<Pool: AnyObject & Sendable>(
    made: Counter, tornDown: Counter, _ make: @escaping @Sendable () -> Pool
) -> @Sendable (DependencyInjector) throws -> Void {
    { app in
        app.register(Pool.self, scope: .singleton) { _ in
            made.increment()
            return make()
        }
        .teardown { _ in tornDown.increment() }
        _ = try app.resolve(Pool.self)
    }
}

/// A strict mode's app is the test's too: what its registrations made there (an eager
/// singleton its `install` builds) is torn down when the test ends, as the test scope's copies are.
@Suite struct TraitStrictAppTeardownTests {
    final class Pool: Sendable {}

    @Test(arguments: [false, true])
    func whatTheStrictAppMadeIsTornDownWithTheTest(oneCore: Bool) async throws {
        let made = Counter()
        let tornDown = Counter()
        let register = appMakingAPool(made: made, tornDown: tornDown) { Pool() }
        let trait: InjectingTrait = .injecting(.strict(app: register, allowing: [Pool.self]))
        let test = try #require(Test.current)
        let root = DependencyInjector()
        let asyncRoot = oneCore ? AsyncDependencyInjector.shared.face(ofChild: root) : AsyncDependencyInjector()
        try await DependencyInjector.$current.withValue(root) {
            try await AsyncDependencyInjector.$current.withValue(asyncRoot) {
                try await trait.provideScope(for: test, testCase: Test.Case.current) {
                    _ = try DependencyInjector.current.resolve(Pool.self)  // the test scope's own copy
                }
            }
        }
        #expect(made.value == 2)
        #expect(tornDown.value == 2)
    }
}

/// A strict mode's app that throws after making a value (an `install` that fails after an
/// eager singleton): the test does not run, and what the app made is torn down all the same.
@Suite struct TraitStrictAppFailureTeardownTests {
    final class Pool: Sendable {}
    struct AppFailure: Error {}

    @Test(arguments: [false, true], [false, true])
    func whatAFailingStrictAppMadeIsTornDown(oneCore: Bool, asyncAppThrows: Bool) async throws {
        let made = Counter()
        let tornDown = Counter()
        let ran = Counter()
        let makePool = appMakingAPool(made: made, tornDown: tornDown) { Pool() }
        let register: @Sendable (DependencyInjector) throws -> Void = { app in
            try makePool(app)
            if !asyncAppThrows { throw AppFailure() }
        }
        let asyncApp: @Sendable (AsyncDependencyInjector) async throws -> Void = { _ in
            if asyncAppThrows { throw AppFailure() }
        }
        let trait: InjectingTrait = .injecting(.strict(app: register, asyncApp: asyncApp, allowing: [Pool.self]))
        let test = try #require(Test.current)
        let root = DependencyInjector()
        let asyncRoot = oneCore ? AsyncDependencyInjector.shared.face(ofChild: root) : AsyncDependencyInjector()
        await #expect(throws: AppFailure.self) {
            try await DependencyInjector.$current.withValue(root) {
                try await AsyncDependencyInjector.$current.withValue(asyncRoot) {
                    try await trait.provideScope(for: test, testCase: Test.Case.current) { ran.increment() }
                }
            }
        }
        #expect(ran.value == 0)
        #expect(made.value == 1)
        #expect(tornDown.value == 1)
    }
}

/// The trait's scopes keep their own singletons: an app's singleton is built afresh in each
/// test, with the test's overrides, and the app's own copy is never created.
@Suite struct TraitSingletonTests {
    @Test func eachFacesScopeBuildsTheAppsSingletonsAfresh() async throws {
        let app = DependencyInjector()
        let asyncApp = AsyncDependencyInjector()
        app.register(Checkout.self, scope: .singleton) { _ in Checkout() }
        await asyncApp.register(String.self, name: "greeting", scope: .singleton) { r in
            try await "sent by \(r.resolve((any Mailer).self).send())"
        }
        let trait: InjectingTrait = .injecting {
            $0.register(MockPayments(id: 4) as any PaymentService)
        } async: {
            await $0.register(MockMailer(id: 4) as any Mailer)
        }
        let test = try #require(Test.current)

        try await DependencyInjector.$current.withValue(app) {
            try await AsyncDependencyInjector.$current.withValue(asyncApp) {
                try await trait.provideScope(for: test, testCase: Test.Case.current) {
                    #expect(try DependencyInjector.current.resolve(Checkout.self).pay() == "mock 4 charged 100")
                    let greeting = try await AsyncDependencyInjector.current.resolve(String.self, name: "greeting")
                    #expect(greeting == "sent by mock 4 sent")
                }
            }
        }
        #expect(!app.registrations.contains { $0.key == DependencyKey(Checkout.self) && $0.isCreated })
        // Built in the test with its mailer; the app, which has none, never built its own.
        await #expect(throws: InjectionError.self) { try await asyncApp.resolve(String.self, name: "greeting") }
    }
}
