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
        await child.register(String.self, name: "weakly", scope: .weak) { "" }

        #expect(
            await child.registrations.map(\.description) == [
                "InjectorTests.Dependent (singleton, inherited)",
                "InjectorTests.Service (instance)",
                "Swift.Int (transient)",
                #"Swift.String named "weakly" (weak)"#,
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
