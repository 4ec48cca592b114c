import Injector
import Testing

/// The behaviour both faces share because they share one core: registrations, scopes, the
/// ancestor walk and the errors, each test run against `DependencyInjector` and
/// `AsyncDependencyInjector`.
@Suite struct CoreTests {
    @Test(arguments: Face.allCases)
    func instancesAndFactoriesResolveByTypeAndName(face: Face) async throws {
        let injector = face.makeInjector()
        await injector.register(Service(label: "plain"))
        await injector.register(Service(label: "named"), name: "special")
        await injector.register(Dependent.self, resolving: Service.self) { Dependent(service: $0) }

        #expect(try await injector.resolve(Service.self).label == "plain")
        #expect(try await injector.resolve(Service.self, name: "special").label == "named")
        #expect(try await injector.resolve(Dependent.self).service.label == "plain")
        #expect(await injector.isRegistered(Dependent.self))
        await injector.unregister(Dependent.self)
        #expect(await !injector.isRegistered(Dependent.self))
    }

    @Test(arguments: Face.allCases)
    func scopesKeepValuesByTheSameRule(face: Face) async throws {
        let injector = face.makeInjector()
        let made = Counter()
        await injector.register(Service.self, scope: .singleton) { Service(label: "\(made.increment())") }
        await injector.register(Dependent.self, resolving: Service.self) { Dependent(service: $0) }

        let first = try await injector.resolve(Dependent.self)
        let second = try await injector.resolve(Dependent.self)
        #expect(first !== second)  // transient
        #expect(first.service === second.service)  // one singleton
        #expect(made.value == 1)
    }

    @Test(arguments: Face.allCases)
    func aChildOverridesTransientsButSharesItsParentsSingletons(face: Face) async throws {
        let parent = face.makeInjector()
        await parent.register(Service(label: "parent"))
        await parent.register(Dependent.self, resolving: Service.self) { Dependent(service: $0) }
        await parent.register(Box<String>.self, scope: .singleton, resolving: Service.self) { Box(value: $0.label) }
        let child = parent.child()
        await child.register(Service(label: "child"))

        #expect(try await child.resolve(Dependent.self).service.label == "child")
        #expect(try await child.resolve(Box<String>.self).value == "parent")
        #expect(try await parent.resolve(Dependent.self).service.label == "parent")
    }

    @Test(arguments: Face.allCases)
    func aMissingDependencyIsTheSameTypedErrorWithItsPath(face: Face) async {
        let injector = face.makeInjector()
        await injector.register(Dependent.self, resolving: Service.self) { Dependent(service: $0) }

        let error = await injector.resolveError(Dependent.self)
        guard case .notRegistered(let key, let path, _) = error else {
            Issue.record("expected notRegistered, got \(String(describing: error))")
            return
        }
        #expect(key == DependencyKey(Service.self))
        #expect(path == [DependencyKey(Dependent.self), DependencyKey(Service.self)])
    }

    @Test(arguments: Face.allCases)
    func aCycleIsReportedWithItsPath(face: Face) async {
        let injector = face.makeInjector()
        await injector.register(NodeA.self, resolving: NodeB.self) { _ in NodeA() }
        await injector.register(NodeB.self, scope: .singleton, resolving: NodeA.self) { _ in NodeB() }

        let error = await injector.resolveError(NodeA.self)
        guard case .circularDependency(let path) = error else {
            Issue.record("expected circularDependency, got \(String(describing: error))")
            return
        }
        #expect(path == [DependencyKey(NodeA.self), DependencyKey(NodeB.self), DependencyKey(NodeA.self)])
    }

    @Test func anAsyncSingletonIsReadableWithoutAwaitOnceCreated() async throws {
        // One core: a singleton an async factory created is a ready value in the registry.
        let injector = AsyncDependencyInjector()
        await injector.register(Service.self, scope: .singleton) { _ in
            await Task.yield()
            return Service(label: "async")
        }
        let created = try await injector.resolve(Service.self)
        #expect(try await injector.child().resolve(Service.self) === created)
    }
}
