import Injector
import Testing

@Suite struct AsyncChildInjectorTests {
    @Test func aChildSeesItsParentsRegistrationsAndOverridesLocally() async throws {
        let parent = AsyncDependencyInjector()
        await parent.register(EnglishGreeter() as any Greeter)
        await parent.register("parent", name: "who")
        let child = parent.child()
        await child.register(FrenchGreeter() as any Greeter)

        #expect(child.parent === parent)
        #expect(try await child.resolve((any Greeter).self).greet() == "Bonjour")
        #expect(try await child.resolve(String.self, name: "who") == "parent")
        #expect(try await parent.resolve((any Greeter).self).greet() == "Hello")
        #expect(await child.isRegistered(String.self, name: "who"))
        #expect(await !parent.isRegistered(Int.self))
    }

    @Test func unregisteringAnOverrideRevealsTheParentAgain() async throws {
        let parent = AsyncDependencyInjector()
        await parent.register(Service(label: "parent"))
        let child = parent.child()
        await child.register(Service(label: "child"))
        #expect(try await child.resolve(Service.self).label == "child")

        await child.unregister(Service.self)
        #expect(try await child.resolve(Service.self).label == "parent")
    }

    @Test func anAncestorsSingletonIsSharedAndBuiltWithTheAncestorsRegistrations() async throws {
        let parent = AsyncDependencyInjector()
        await parent.register(Service(label: "parent's"))
        await parent.register(Dependent.self, scope: .singleton) { r in
            try await Task.sleep(nanoseconds: 1_000_000)
            return try await Dependent(service: r.resolve())
        }
        let first = parent.child()
        let second = parent.child()
        await first.register(Service(label: "first's override"))

        let fromFirst = try await first.resolve(Dependent.self)
        let fromSecond = try await second.resolve(Dependent.self)
        #expect(fromFirst === fromSecond)
        #expect(fromFirst.service.label == "parent's")
        #expect(try await parent.resolve(Dependent.self) === fromFirst)
    }

    @Test func anAncestorsTransientIsBuiltByTheResolvingChild() async throws {
        let parent = AsyncDependencyInjector()
        await parent.register(Service(label: "parent's"))
        await parent.register(Dependent.self) { r in try await Dependent(service: r.resolve()) }
        let child = parent.child()
        await child.register(Service(label: "child's"))

        #expect(try await child.resolve(Dependent.self).service.label == "child's")
        #expect(try await parent.resolve(Dependent.self).service.label == "parent's")
    }

    @Test func aMissingKeyInAChildIsReportedWithItsParentsSuggestions() async {
        let parent = AsyncDependencyInjector()
        await parent.register(Int.self, name: "port") { _ in 8080 }
        let child = parent.child()
        await child.register(Int.self, name: "timeout") { _ in 30 }

        let error = await injectionError { try await child.resolve(Int.self) }
        guard case .notRegistered(_, _, let suggestions) = error else {
            Issue.record("expected notRegistered, got \(String(describing: error))")
            return
        }
        #expect(suggestions == [.otherNames(["port", "timeout"])])
    }
}
