import Injector
import Testing

private final class AppModule {
    @Provider var greeter: any Greeter = EnglishGreeter()
    @Provider(name: "motto") var motto = "Carpe diem"
}

private final class Greeting {
    @Inject var greeter: any Greeter
}

private struct ValueModule {
    @Provider var service = Service(label: "from a struct")
}

@MainActor
private final class MainActorModule {
    @Provider var service = Service(label: "from the main actor")
}

private final class ProvidedSession: Sendable {
    let label: String
    init(label: String) { self.label = label }
}

/// Providers whose injector is given, so that a test can seal it first.
private final class SealedModule {
    @Provider var url: String
    @Provider var session: ProvidedSession

    init(injector: DependencyInjector) {
        _url = Provider(wrappedValue: "https://api.example.com", name: "url", injector: injector)
        _session = Provider(scope: .singleton, injector: injector) { _ in ProvidedSession(label: "provided") }
    }
}

@Suite struct ProviderTests {
    @Test func anAssignmentASealedInjectorRefusesChangesNothing() throws {
        let injector = DependencyInjector()
        let module = SealedModule(injector: injector)
        injector.seal()
        module.url = "https://elsewhere.example.com"
        #expect(module.url == "https://api.example.com")
        #expect(try injector.resolve(String.self, name: "url") == module.url)
    }

    @Test func anInitializerOfTheActorFaceTakesASynchronousProviderHandle() async throws {
        final class Flow: Sendable {
            let make: ProviderHandle<ProvidedSession>
            init(make: ProviderHandle<ProvidedSession>) { self.make = make }
        }
        let app = AsyncDependencyInjector()
        await app.register(ProvidedSession(label: "app"))
        await app.register(Flow.self, initializer: Flow.init)
        #expect(try await app.resolve(Flow.self).make().label == "app")
    }

    @Test func aProviderASealedInjectorRefusedSaysSo() throws {
        let injector = DependencyInjector()
        injector.seal()
        let module = SealedModule(injector: injector)
        for (result, key) in [
            (module.$session.map { $0 as Any }, DependencyKey(ProvidedSession.self)),
            (module.$url.map { $0 as Any }, DependencyKey(String.self, name: "url")),
        ] {
            guard case .failure(.sealed(let refused)) = result else {
                Issue.record("expected sealed, got \(result)")
                continue
            }
            #expect(refused == key)
        }
    }
    @Test func registersUnderTheDeclaredTypeWhenTheOwnerIsInitialised() throws {
        let injector = DependencyInjector()
        _ = DependencyInjector.$current.withValue(injector) { AppModule() }

        #expect(try injector.resolve((any Greeter).self).greet() == "Hello")
        #expect(try injector.resolve(String.self, name: "motto") == "Carpe diem")
        #expect(!injector.isRegistered(EnglishGreeter.self))
    }

    @Test func assigningRegistersTheNewValueForObjectsCreatedLater() {
        let injector = DependencyInjector()
        DependencyInjector.$current.withValue(injector) {
            let module = AppModule()
            let before = Greeting()
            module.greeter = FrenchGreeter()
            let after = Greeting()

            #expect(module.greeter.greet() == "Bonjour")
            #expect(before.greeter.greet() == "Hello")
            #expect(after.greeter.greet() == "Bonjour")
        }
    }

    @Test func aScopedProviderEvaluatesItsExpressionOnlyWhenResolved() throws {
        let injector = DependencyInjector()
        let calls = Counter()
        final class LazyModule {
            @Provider var service: Service
            init(calls: Counter, injector: DependencyInjector) {
                _service = Provider(
                    wrappedValue: Service(label: "built \(calls.increment())"),
                    scope: .singleton,
                    injector: injector
                )
            }
        }
        let module = LazyModule(calls: calls, injector: injector)
        #expect(calls.value == 0)

        let resolved = try injector.resolve(Service.self)
        #expect(resolved.label == "built 1")
        #expect(module.service === resolved)
        #expect(calls.value == 1)
    }

    @Test func theScopeReadsNaturallyAtTheDeclaration() throws {
        let injector = DependencyInjector()
        final class DatabaseModule {
            @Provider(scope: .singleton, injector: sharedTestInjector) var service = Service(label: "db")
        }
        _ = DatabaseModule()
        #expect(try sharedTestInjector.resolve(Service.self).label == "db")
        #expect(!injector.isRegistered(Service.self))
    }

    @Test func theFactoryFormBuildsFromOtherDependencies() throws {
        let injector = DependencyInjector()
        injector.register(Service(label: "engine"))
        final class CarModule {
            @Provider(
                scope: .singleton, injector: factoryFormInjector, factory: { r in try Dependent(service: r.resolve()) })
            var dependent: Dependent
        }
        factoryFormInjector.register(Service(label: "engine"))
        let module = CarModule()
        #expect(module.dependent.service.label == "engine")
        #expect(try factoryFormInjector.resolve(Dependent.self) === module.dependent)
        #expect(!injector.isRegistered(Dependent.self))
    }

    @MainActor
    @Test func worksInStructsAndMainActorClasses() throws {
        let injector = DependencyInjector()
        _ = DependencyInjector.$current.withValue(injector) { ValueModule() }
        #expect(try injector.resolve(Service.self).label == "from a struct")
        _ = DependencyInjector.$current.withValue(injector) { MainActorModule() }
        #expect(try injector.resolve(Service.self).label == "from the main actor")
    }

    @Test func aScopedProviderReadsWhatTheInjectorHoldsNow() throws {
        let injector = DependencyInjector()
        let made = Counter()
        struct Module {
            @Provider var service: Service
            init(injector: DependencyInjector, made: Counter) {
                _service = Provider(scope: .singleton, injector: injector) { _ in
                    Service(label: "made \(made.increment())")
                }
            }
        }
        let module = Module(injector: injector, made: made)
        #expect(made.value == 0)
        let first = module.service
        #expect(module.service === first)
        #expect(try injector.resolve(Service.self) === first)
        try injector.reset(.singleton)
        #expect(module.service !== first)
        #expect(made.value == 2)
        injector.unregister(Service.self)
        guard case .failure(.notRegistered) = module.$service else {
            Issue.record("expected notRegistered after unregister")
            return
        }
    }

    @Test func readingAScopedProviderThatCannotResolveStopsWithTheFullDescription() async {
        let result = await #expect(
            processExitsWith: .failure, observing: [\.standardErrorContent, \.standardOutputContent]
        ) {
            final class Module {
                @Provider(scope: .singleton) var service = Service()
            }
            let injector = DependencyInjector()
            let module = DependencyInjector.$current.withValue(injector) { Module() }
            injector.unregister(Service.self)
            // The test's recorder (the testing trait binds one): it hears of the failure before the stop.
            let recorder = TestIssueRecorder { message, _ in
                print("recorded: \(message)")
                return true
            }
            TestIssueRecorder.$current.withValue(recorder) { _ = module.service }
        }
        let stderr = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(stderr.contains("@Provider property declared at InjectorTests/ProviderTests.swift:"))
        #expect(stderr.contains("Injector could not resolve InjectorTests.Service: nothing is registered for it."))
        // Recorded on the test first: in a parallel run, the stop's report names no test.
        let stdout = String(decoding: result?.standardOutputContent ?? [], as: UTF8.self)
        #expect(stdout.contains("recorded: @Provider property declared at InjectorTests/ProviderTests.swift:"))
    }
}

/// An injector that only `theScopeReadsNaturallyAtTheDeclaration` uses: a wrapper argument
/// at a declaration can only name something global.
private let sharedTestInjector = DependencyInjector()

/// The injector of `theFactoryFormBuildsFromOtherDependencies`, for the same reason.
private let factoryFormInjector = DependencyInjector()
