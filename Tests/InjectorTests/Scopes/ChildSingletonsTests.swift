import Injector
import Testing

/// `child(singletons:)` on both faces: a child shares its ancestors' singletons (`.shared`,
/// what `child()` makes) or builds and keeps its own copies (`.own`, what test scopes make).
@Suite struct ChildSingletonsTests {
    /// A parent with a `Service` and a singleton `Dependent` built from it; `made` records the
    /// label of every `Service` a `Dependent` was built with.
    private func parent(_ face: Face, made: Collected<String>) async -> FaceInjector {
        let parent = face.makeInjector()
        await parent.register(Service(label: "parent"))
        await parent.register(Dependent.self, scope: .singleton, resolving: Service.self) {
            made.append($0.label)
            return Dependent(service: $0)
        }
        return parent
    }

    @Test(arguments: Face.allCases)
    func aSharingChildUsesItsAncestorsSingletons(face: Face) async throws {
        let made = Collected<String>()
        let parent = await parent(face, made: made)
        let child = parent.child(singletons: .shared)
        await child.register(Service(label: "child"))

        let fromChild = try await child.resolve(Dependent.self)
        #expect(fromChild.service.label == "parent")  // the child's override does not leak in
        #expect(try await parent.resolve(Dependent.self) === fromChild)
        #expect(try await parent.child().resolve(Dependent.self) === fromChild)  // `child()` shares too
        #expect(made.values == ["parent"])
    }

    @Test(arguments: Face.allCases)
    func anOwningChildBuildsItsOwnCopyWithItsOverrides(face: Face) async throws {
        let made = Collected<String>()
        let parent = await parent(face, made: made)
        let child = parent.child(singletons: .own)
        await child.register(Service(label: "child"))

        let kept = try await child.resolve(Dependent.self)
        #expect(kept.service.label == "child")
        #expect(try await child.resolve(Dependent.self) === kept)
        #expect(made.values == ["child"])  // the parent's copy was not created

        let fromParent = try await parent.resolve(Dependent.self)
        #expect(fromParent.service.label == "parent")
        #expect(fromParent !== kept)
        // An ordinary child of the owning child shares the owner's copy.
        #expect(try await child.child().resolve(Dependent.self) === kept)
        #expect(made.values == ["child", "parent"])
    }

    @Test(arguments: Face.allCases)
    func reRegisteringInTheParentIsSeenByTheOwningChild(face: Face) async throws {
        let parent = face.makeInjector()
        await parent.register(Service.self, scope: .singleton) { Service(label: "old") }
        let child = parent.child(singletons: .own)
        #expect(try await child.resolve(Service.self).label == "old")

        await parent.register(Service.self, scope: .singleton) { Service(label: "new") }
        #expect(try await child.resolve(Service.self).label == "new")
    }

    @Test(arguments: Face.allCases)
    func weakInstancesAreKeptWeakly(face: Face) async throws {
        let parent = face.makeInjector()
        let runs = Counter()
        await parent.register(Service.self, scope: .weak) {
            runs.increment()
            return Service()
        }
        let child = parent.child(singletons: .own)

        var held: Service? = try await child.resolve(Service.self)
        #expect(try await child.resolve(Service.self) === held)
        weak let first = held
        held = nil
        #expect(await released { first == nil })
        _ = try await child.resolve(Service.self)
        #expect(runs.value == 2)
    }

    @Test(arguments: Face.allCases)
    func cyclesThroughInheritedSingletonsAreReported(face: Face) async {
        let parent = face.makeInjector()
        await parent.register(NodeA.self, scope: .singleton, resolving: NodeB.self) { _ in NodeA() }
        await parent.register(NodeB.self, scope: .singleton, resolving: NodeA.self) { _ in NodeB() }
        let child = parent.child(singletons: .own)

        let error = await child.resolveError(NodeA.self)
        guard case .circularDependency(let path) = error else {
            Issue.record("expected circularDependency, got \(String(describing: error))")
            return
        }
        #expect(path == [DependencyKey(NodeA.self), DependencyKey(NodeB.self), DependencyKey(NodeA.self)])
    }

    @Test(arguments: Face.allCases)
    func racingResolvesInAnOwningChildRunTheFactoryOnce(face: Face) async throws {
        let parent = face.makeInjector()
        let runs = Counter()
        await parent.register(Service.self, scope: .singleton) {
            runs.increment()
            return Service()
        }
        let child = parent.child(singletons: .own)
        let results = try await withThrowingTaskGroup(of: Service.self) { group in
            for _ in 0..<16 { group.addTask { try await child.resolve(Service.self) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(runs.value == 1)
        #expect(results.allSatisfy { $0 === results.first })
    }

    @Test func sixteenThreadsRacingOnAnOwningChildRunTheFactoryOnce() {
        for _ in 0..<10 {
            let parent = DependencyInjector()
            let runs = Counter()
            parent.register(Service.self, scope: .singleton) { _ in
                runs.increment()
                return Service()
            }
            let child = parent.child(singletons: .own)
            let results = Collected<Service?>()
            runOnThreads(16) { _ in results.append(try? child.resolve(Service.self)) }

            #expect(runs.value == 1)
            #expect(results.values.allSatisfy { $0 != nil && $0 === results.values.first ?? nil })
        }
    }
}
