import Injector
import Testing

@Suite struct ChildInjectorTests {
    @Test func childInheritsAndOverridesWithoutTouchingTheParent() throws {
        let parent = DependencyInjector()
        parent.register(EnglishGreeter() as any Greeter)
        parent.register("from parent", name: "origin")
        let child = parent.child()
        child.register(FrenchGreeter() as any Greeter)

        #expect(try child.resolve((any Greeter).self).greet() == "Bonjour")
        #expect(try child.resolve(String.self, name: "origin") == "from parent")
        #expect(try parent.resolve((any Greeter).self).greet() == "Hello")
        #expect(child.parent === parent)
    }

    @Test func unregisteringAnOverrideRevealsTheParentsRegistration() throws {
        let parent = DependencyInjector()
        parent.register(EnglishGreeter() as any Greeter)
        let child = parent.child()
        child.register(FrenchGreeter() as any Greeter)

        child.unregister((any Greeter).self)
        #expect(try child.resolve((any Greeter).self).greet() == "Hello")

        child.unregister((any Greeter).self)  // nothing left in the child: the parent keeps its own
        #expect(parent.isRegistered((any Greeter).self))
    }

    @Test func anAncestorsSingletonIsSharedAndBuiltWithTheAncestorsRegistrations() throws {
        let parent = DependencyInjector()
        parent.register(Service(label: "parent"))
        parent.register(Dependent.self, scope: .singleton) { r in try Dependent(service: r.resolve()) }
        let child = parent.child()
        child.register(Service(label: "child override"))

        let fromChild = try child.resolve(Dependent.self)
        #expect(fromChild.service.label == "parent")
        #expect(try parent.resolve(Dependent.self) === fromChild)
        #expect(try parent.child().resolve(Dependent.self) === fromChild)
    }

    @Test func anAncestorsTransientIsBuiltByTheResolvingInjector() throws {
        let parent = DependencyInjector()
        parent.register(Service(label: "parent"))
        parent.register(Dependent.self) { r in try Dependent(service: r.resolve()) }
        let child = parent.child()
        child.register(Service(label: "child override"))

        #expect(try child.resolve(Dependent.self).service.label == "child override")
        #expect(try parent.resolve(Dependent.self).service.label == "parent")
    }

    @Test func theBuildingInjectorIsCurrentWhileItsFactoryRuns() throws {
        let parent = DependencyInjector()
        let child = parent.child()
        parent.register(String.self, name: "transient") { _ in
            DependencyInjector.current === child ? "child" : "other"
        }
        parent.register(String.self, name: "singleton", scope: .singleton) { _ in
            DependencyInjector.current === parent ? "parent" : "other"
        }

        #expect(try child.resolve(String.self, name: "transient") == "child")
        #expect(try child.resolve(String.self, name: "singleton") == "parent")
        #expect(DependencyInjector.current === DependencyInjector.shared)
    }

    @Test func isRegisteredLooksThroughAncestors() {
        let parent = DependencyInjector()
        parent.register(1)
        let child = parent.child()

        #expect(child.isRegistered(Int.self))
        #expect(!child.isRegistered(Int.self, name: "other"))
        #expect(!parent.isRegistered(String.self))
    }
}
