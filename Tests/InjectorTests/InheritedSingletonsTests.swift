import Injector
import Testing

/// The internal child option that `verify()` uses and test scopes are to use: a child that
/// builds and keeps its own copy of every singleton it inherits.
@Suite struct InheritedSingletonsTests {
    @Test func aKeepingChildBuildsItsOwnCopyWithItsOverrides() throws {
        let parent = DependencyInjector()
        parent.register(Service(label: "parent"))
        parent.register(Dependent.self, scope: .singleton) { r in try Dependent(service: r.resolve()) }
        let child = parent.child(keepingInheritedSingletons: true)
        child.register(Service(label: "child"))

        let kept = try child.resolve(Dependent.self)
        #expect(kept.service.label == "child")
        #expect(try child.resolve(Dependent.self) === kept)
        #expect(parent.registrations.first { $0.key == DependencyKey(Dependent.self) }?.isCreated == false)
        #expect(child.registrations.first { $0.key == DependencyKey(Dependent.self) }?.isCreated == true)

        let fromParent = try parent.resolve(Dependent.self)
        #expect(fromParent.service.label == "parent")
        #expect(fromParent !== kept)
        // An ordinary child of the keeping child shares the keeper's copy.
        #expect(try child.child().resolve(Dependent.self) === kept)
    }

    @Test func reRegisteringInTheParentIsSeenByTheKeepingChild() throws {
        let parent = DependencyInjector()
        parent.register(Service.self, scope: .singleton) { _ in Service(label: "old") }
        let child = parent.child(keepingInheritedSingletons: true)
        #expect(try child.resolve(Service.self).label == "old")

        parent.register(Service.self, scope: .singleton) { _ in Service(label: "new") }
        #expect(try child.resolve(Service.self).label == "new")
    }

    @Test func weakInstancesAreKeptWeakly() throws {
        let parent = DependencyInjector()
        let runs = Counter()
        parent.register(Service.self, scope: .weak) { _ in
            runs.increment()
            return Service()
        }
        let child = parent.child(keepingInheritedSingletons: true)

        var held: Service? = try child.resolve(Service.self)
        #expect(try child.resolve(Service.self) === held)
        held = nil
        _ = try child.resolve(Service.self)
        #expect(runs.value == 2)
    }

    @Test func cyclesThroughInheritedSingletonsAreReported() {
        let parent = DependencyInjector()
        parent.register(NodeA.self, scope: .singleton) { r in
            _ = try r.resolve(NodeB.self)
            return NodeA()
        }
        parent.register(NodeB.self, scope: .singleton) { r in
            _ = try r.resolve(NodeA.self)
            return NodeB()
        }
        let child = parent.child(keepingInheritedSingletons: true)

        let error = #expect(throws: InjectionError.self) { try child.resolve(NodeA.self) }
        guard case .circularDependency(let path) = error else {
            Issue.record("expected circularDependency, got \(String(describing: error))")
            return
        }
        #expect(path == [DependencyKey(NodeA.self), DependencyKey(NodeB.self), DependencyKey(NodeA.self)])
    }

    @Test func sixteenThreadsRacingOnAKeepingChildRunTheFactoryOnce() {
        for _ in 0..<10 {
            let parent = DependencyInjector()
            let runs = Counter()
            parent.register(Service.self, scope: .singleton) { _ in
                runs.increment()
                return Service()
            }
            let child = parent.child(keepingInheritedSingletons: true)
            let results = Collected<Service?>()
            runOnThreads(16) { _ in results.append(try? child.resolve(Service.self)) }

            #expect(runs.value == 1)
            #expect(results.values.allSatisfy { $0 != nil && $0 === results.values.first ?? nil })
        }
    }
}
