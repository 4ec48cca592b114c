import Injector
import Testing

@Suite struct RegistrationsTests {
    @Test func listsOwnAndInheritedRegistrationsOnceEachWithScopeAndState() throws {
        let parent = DependencyInjector()
        parent.register(Service(label: "parent"))
        parent.register(Dependent.self, scope: .singleton) { r in try Dependent(service: r.resolve()) }
        let child = parent.child()
        child.register(Service(label: "child"))
        child.register(Int.self) { _ in 1 }
        child.register(String.self, name: "weakly", scope: .weak) { _ in "" }

        #expect(
            child.registrations.map(\.description) == [
                "InjectorTests.Dependent (singleton, inherited)",
                "InjectorTests.Service (instance)",
                "Swift.Int (transient)",
                #"Swift.String named "weakly" (weak)"#,
            ]
        )

        _ = try child.resolve(Dependent.self)
        let dependent = try #require(child.registrations.first)
        #expect(dependent.description == "InjectorTests.Dependent (singleton, created, inherited)")
        #expect(dependent.owner === parent)
        #expect(dependent.isInherited)
        #expect(dependent.kind == .factory(.singleton))
        #expect(dependent.scope == .singleton)

        let service = try #require(child.registrations.first { $0.key == DependencyKey(Service.self) })
        #expect(service.owner === child)
        #expect(service.kind == .instance)
        #expect(service.isCreated)
        #expect(
            parent.registrations.map(\.description) == [
                "InjectorTests.Dependent (singleton, created)", "InjectorTests.Service (instance)",
            ])
    }
}
