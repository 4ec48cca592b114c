import Injector
import Testing

@Suite struct RegistrationsTests {
    @Test(arguments: Face.allCases)
    func listsOwnAndInheritedRegistrationsOnceEachWithScopeAndState(face: Face) async throws {
        let parent = face.makeInjector()
        await parent.register(Service(label: "parent"))
        await parent.register(Dependent.self, scope: .singleton, resolving: Service.self) { Dependent(service: $0) }
        let child = parent.child()
        await child.register(Service(label: "child"))
        await child.register(Int.self) { 1 }
        await child.register(Service.self, name: "weakly", scope: .weak) { Service(label: "weak") }
        // Scopes.md: a value type cannot be held weakly; registered `.weak`, it is a transient.
        await child.register(String.self, name: "weakly", scope: .weak) { "" }

        #expect(
            await child.registrations.map(\.description) == [
                "InjectorTests.Dependent (singleton, inherited)",
                "InjectorTests.Service (instance)",
                #"InjectorTests.Service named "weakly" (weak)"#,
                "Swift.Int (transient)",
                #"Swift.String named "weakly" (transient)"#,
            ]
        )

        _ = try await child.resolve(Dependent.self)
        let dependent = try #require(await child.registrations.first)
        #expect(dependent.description == "InjectorTests.Dependent (singleton, created, inherited)")
        #expect(dependent.owner == parent.owner)
        #expect(dependent.isInherited)
        #expect(dependent.kind == .factory(.singleton))
        #expect(dependent.scope == .singleton)

        let service = try #require(await child.registrations.first { $0.key == DependencyKey(Service.self) })
        #expect(service.owner == child.owner)
        #expect(service.kind == .instance)
        #expect(service.isCreated)
        #expect(
            await parent.registrations.map(\.description) == [
                "InjectorTests.Dependent (singleton, created)", "InjectorTests.Service (instance)",
            ])
    }
}

/// A factory that caches its values by argument keeps them: `registrations` and `graph()` list it
/// with its cache's lifetime, as a captive dependency names it, not as the transient it is
/// stored as (which said that nothing was kept). One without `caching:` is a transient.
@Suite struct CachedRegistrationListingTests {
    @Test(arguments: Face.allCases)
    func aFactoryThatCachesByArgumentIsListedWithItsCachesLifetime(face: Face) async throws {
        let injector = face.makeInjector()
        switch injector.base {
        case .sync(let injector):
            injector.register(Service.self, caching: .strong(limit: 2)) { (_, label: String) in Service(label: label) }
            injector.register(Int.self) { (_, value: Int) in value }
        case .async(let injector):
            await injector.register(Service.self, caching: .strong(limit: 2)) { (_, label: String) in
                Service(label: label)
            }
            await injector.register(Int.self) { (_, value: Int) in value }
        }
        let listed = await injector.registrations
        #expect(
            listed.map(\.description) == [
                "InjectorTests.Service (caching: .strong(limit: 2))", "Swift.Int (transient)",
            ])
        #expect(listed.first?.kind == .factory(.named("caching: .strong(limit: 2)")))
        let graph: DependencyGraph =
            switch injector.base {
            case .sync(let injector): injector.graph()
            case .async(let injector): await injector.graph()
            }
        #expect(
            graph.dot.contains(#""InjectorTests.Service" [label="InjectorTests.Service\ncaching: .strong(limit: 2)"];"#)
        )
    }
}
