import Injector
import Testing

@Suite struct AsyncResolutionTests {
    @Test func anAsyncFactoryThatSuspendsIsAwaited() async throws {
        let injector = AsyncDependencyInjector()
        await injector.register(Service.self) { _ in
            try await Task.sleep(nanoseconds: 10_000_000)
            return Service(label: "slept")
        }

        #expect(try await injector.resolve(Service.self).label == "slept")
    }

    @Test func aTransientIsBuiltAnewOnEveryResolve() async throws {
        let injector = AsyncDependencyInjector()
        let calls = Counter()
        await injector.register(Service.self) { _ in
            calls.increment()
            return Service()
        }

        let first = try await injector.resolve(Service.self)
        let second = try await injector.resolve(Service.self)
        #expect(first !== second)
        #expect(calls.value == 2)
    }

    @Test func instancesNamesAndProtocolsAreKeysAsInTheSyncInjector() async throws {
        let injector = AsyncDependencyInjector()
        await injector.register(EnglishGreeter() as any Greeter)
        await injector.register(FrenchGreeter(), as: (any Greeter).self, name: "fr")
        await injector.register("https://example.com", name: "baseURL")

        #expect(try await injector.resolve((any Greeter).self).greet() == "Hello")
        #expect(try await injector.resolve((any Greeter).self, name: "fr").greet() == "Bonjour")
        let url: String = try await injector.resolve(name: "baseURL")
        #expect(url == "https://example.com")
        #expect(await injector.isRegistered(String.self, name: "baseURL"))
        #expect(await !injector.isRegistered(String.self))
    }

    @Test func aFactoryResolvesItsOwnDependenciesAsync() async throws {
        let injector = AsyncDependencyInjector()
        await injector.register(Service.self, scope: .singleton) { _ in
            try await Task.sleep(nanoseconds: 5_000_000)
            return Service(label: "engine")
        }
        await injector.register(Dependent.self) { r in try await Dependent(service: r.resolve()) }

        let dependent = try await injector.resolve(Dependent.self)
        #expect(dependent.service.label == "engine")
        #expect(try await injector.resolve(Dependent.self).service === dependent.service)
    }

    @Test(arguments: [Scope.transient, .singleton, .weak])
    func aFactorysErrorArrivesAsFactoryFailedWithThePath(scope: Scope) async {
        let injector = AsyncDependencyInjector()
        await injector.register(Service.self, scope: scope) { _ in throw SampleError(code: 7) }
        await injector.register(Dependent.self) { r in try await Dependent(service: r.resolve()) }

        let error = await injectionError { try await injector.resolve(Dependent.self) }
        guard case .factoryFailed(let key, let path, let underlying) = error else {
            Issue.record("expected factoryFailed, got \(String(describing: error))")
            return
        }
        #expect(key == DependencyKey(Service.self))
        #expect(path == [DependencyKey(Dependent.self), DependencyKey(Service.self)])
        #expect(underlying as? SampleError == SampleError(code: 7))
    }

    @Test func aMissingDependencyDeepInTheGraphIsReportedWithTheWholePath() async {
        let injector = AsyncDependencyInjector()
        await injector.register(NodeA.self) { r in
            _ = try await r.resolve(NodeB.self)
            return NodeA()
        }
        await injector.register(NodeB.self, scope: .singleton) { r in
            _ = try await r.resolve(NodeC.self)
            return NodeB()
        }

        let error = await injectionError { try await injector.resolve(NodeA.self) }
        guard case .notRegistered(let key, let path, _) = error else {
            Issue.record("expected notRegistered, got \(String(describing: error))")
            return
        }
        #expect(key == DependencyKey(NodeC.self))
        #expect(path.map { String(describing: $0.type) } == ["NodeA", "NodeB", "NodeC"])
    }

    /// The async injector shares the sync one's error type, so its messages are the same texts.
    @Test func messagesAreTheSyncInjectorsWordForWord() async {
        let sync = DependencyInjector()
        sync.register(EnglishGreeter())
        sync.register(FeatureA.Config(value: "a"))
        sync.register(Int.self, name: "port") { _ in 8080 }
        sync.register(Service.self) { _ in throw SampleError(code: 1) }
        let async = AsyncDependencyInjector()
        await async.register(EnglishGreeter())
        await async.register(FeatureA.Config(value: "a"))
        await async.register(Int.self, name: "port") { _ in 8080 }
        await async.register(Service.self) { _ in throw SampleError(code: 1) }

        let pairs: [(InjectionError?, InjectionError?)] = [
            (
                syncError { try sync.resolve((any Greeter).self) },
                await injectionError { try await async.resolve((any Greeter).self) }
            ),
            (
                syncError { try sync.resolve(FeatureB.Config.self) },
                await injectionError { try await async.resolve(FeatureB.Config.self) }
            ),
            (syncError { try sync.resolve(Int.self) }, await injectionError { try await async.resolve(Int.self) }),
            (
                syncError { try sync.resolve(Service.self) },
                await injectionError { try await async.resolve(Service.self) }
            ),
        ]
        for (syncError, asyncError) in pairs {
            #expect(asyncError != nil)
            #expect(asyncError.map(String.init(describing:)) == syncError.map(String.init(describing:)))
        }
        #expect(
            pairs.first?.1.map(String.init(describing:)) == """
                Injector could not resolve any InjectorTests.Greeter: nothing is registered for it.
                Suggestion: InjectorTests.EnglishGreeter is registered and conforms to any InjectorTests.Greeter; \
                register it as that type: `register(value as any InjectorTests.Greeter)` or \
                `register(value, as: (any InjectorTests.Greeter).self)`.
                To fix: register any InjectorTests.Greeter before resolving it, e.g. \
                `injector.register((any InjectorTests.Greeter).self) { r in … }`.
                """
        )
    }

    @Test func unregisteringRemovesTheKeyAndItsSingleton() async throws {
        let injector = AsyncDependencyInjector()
        await injector.register(Service.self, scope: .singleton) { _ in Service() }
        let first = try await injector.resolve(Service.self)

        await injector.unregister(Service.self)
        #expect(await !injector.isRegistered(Service.self))
        #expect(await injectionError { try await injector.resolve(Service.self) } != nil)

        await injector.register(Service.self, scope: .singleton) { _ in Service() }
        #expect(try await injector.resolve(Service.self) !== first)
    }

    @Test func aWeakInstanceLivesWhileSomeoneHoldsIt() async throws {
        let injector = AsyncDependencyInjector()
        let calls = Counter()
        await injector.register(Service.self, scope: .weak) { _ in
            calls.increment()
            return Service()
        }

        do {
            let held = try await injector.resolve(Service.self)
            let again = try await injector.resolve(Service.self)
            #expect(held === again)
            #expect(calls.value == 1)
        }
        // Nobody holds the first instance any more: the next resolve creates another.
        _ = try await injector.resolve(Service.self)
        #expect(calls.value == 2)
    }

    /// The sync injector's error for `body`, or `nil`.
    private func syncError(_ body: () throws -> Any) -> InjectionError? {
        do {
            _ = try body()
            return nil
        } catch let error as InjectionError {
            return error
        } catch {
            return nil
        }
    }
}
