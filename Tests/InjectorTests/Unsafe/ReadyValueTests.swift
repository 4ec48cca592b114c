import Injector
import Testing

private protocol Shape: Sendable { var sides: Int { get } }
private struct Triangle: Shape { var sides: Int { 3 } }
private struct Square: Shape { var sides: Int { 4 } }

/// What the lock-free read of ready values hands out always follows the registry: the
/// published table never hands out what is no longer registered (after a re-registration,
/// an unregistration, a reset or an override scope, on both faces), and readers racing a
/// writer see only values that were registered. (Stress, under TSan: `ReadyValueStressTests`.)
@Suite struct ReadyValueTests {
    /// Resolves `type` often enough that the injector publishes its table of ready values, so
    /// that later resolves read it without a lock (the first locked find publishes one).
    private static func warm<T: Sendable>(
        _ injector: FaceInjector, _ type: T.Type, name: String? = nil
    ) async throws {
        for _ in 0..<4 { _ = try await injector.resolve(type, name: name) }
    }

    @Test(arguments: Face.allCases)
    func aValueReRegisteredAfterItWasPublishedIsTheNewOne(face: Face) async throws {
        let injector = face.makeInjector()
        await injector.register("first", as: String.self)
        await injector.register("named first", as: String.self, name: "a name longer than fifteen bytes")
        try await Self.warm(injector, String.self)
        try await Self.warm(injector, String.self, name: "a name longer than fifteen bytes")

        await injector.register("second", as: String.self)
        #expect(try await injector.resolve(String.self) == "second")
        #expect(try await injector.resolve(String.self, name: "a name longer than fifteen bytes") == "named first")
        await injector.register("named second", as: String.self, name: "a name longer than fifteen bytes")
        #expect(try await injector.resolve(String.self, name: "a name longer than fifteen bytes") == "named second")

        await injector.unregister(String.self)
        let error = await injector.resolveError(String.self)
        guard case .notRegistered(let key, _, _)? = error else {
            Issue.record("expected notRegistered, got \(String(describing: error))")
            return
        }
        #expect(key == DependencyKey(String.self))
    }

    @Test(arguments: Face.allCases)
    func aKeyReRegisteredWithAnotherKindOfRegistrationGivesTheNewOnesValues(face: Face) async throws {
        let injector = face.makeInjector()
        // An instance kept as its own type (the table's typed box), then a transient, then a
        // singleton, then an instance again: each read after the others were published.
        await injector.register(Service(label: "instance"))
        try await Self.warm(injector, Service.self)

        let made = Counter()
        await injector.register(Service.self) { Service(label: "transient \(made.increment())") }
        try await Self.warm(injector, Service.self)
        #expect(try await injector.resolve(Service.self).label == "transient 5")

        await injector.register(Service.self, scope: .singleton) { Service(label: "singleton") }
        let singleton = try await injector.resolve(Service.self)
        try await Self.warm(injector, Service.self)
        #expect(try await injector.resolve(Service.self) === singleton)

        await injector.register(Service(label: "instance again"))
        #expect(try await injector.resolve(Service.self).label == "instance again")

        // A protocol key (no typed box: the value's type is not the key's), re-registered
        // with a value of another type.
        await injector.register(Triangle() as any Shape)
        try await Self.warm(injector, (any Shape).self)
        await injector.register(Square() as any Shape)
        #expect(try await injector.resolve((any Shape).self).sides == 4)
        await injector.register((any Shape).self) { Triangle() }
        #expect(try await injector.resolve((any Shape).self).sides == 3)
    }

    @Test(arguments: Face.allCases)
    func aChildSeesItsParentsReRegistrationAndItsOwnOverrideGoing(face: Face) async throws {
        let parent = face.makeInjector()
        let child = parent.child()
        await parent.register("parent first", as: String.self)
        try await Self.warm(child, String.self)

        await parent.register("parent second", as: String.self)
        #expect(try await child.resolve(String.self) == "parent second")

        await child.register("child", as: String.self)
        try await Self.warm(child, String.self)
        #expect(try await child.resolve(String.self) == "child")
        await child.unregister(String.self)
        #expect(try await child.resolve(String.self) == "parent second")
    }

    @Test(arguments: Face.allCases)
    func aResetAfterTheSingletonWasPublishedMakesANewOne(face: Face) async throws {
        let injector = face.makeInjector()
        await injector.register(Service.self, scope: .singleton) { Service() }
        let first = try await injector.resolve(Service.self)
        try await Self.warm(injector, Service.self)

        try await injector.reset(.singleton)
        let second = try await injector.resolve(Service.self)
        #expect(second !== first)
        try await Self.warm(injector, Service.self)
        #expect(try await injector.resolve(Service.self) === second)
    }

    @Test(arguments: Face.allCases)
    func anOverrideScopeBuildsItsOwnSingletonEvenWhenTheParentsIsPublished(face: Face) async throws {
        let app = face.makeInjector()
        await app.register("live", as: String.self)
        await app.register(Box<String>.self, scope: .singleton, resolving: String.self) { Box(value: $0) }
        #expect(try await app.resolve(Box<String>.self).value == "live")
        try await Self.warm(app, Box<String>.self)

        let inside = try await app.withOverrides({ await $0.register("mock", as: String.self) }) {
            try await face.currentInjector.resolve(Box<String>.self).value
        }
        #expect(inside == "mock")
        #expect(try await app.resolve(Box<String>.self).value == "live")
    }

    /// Readers on the lock-free path while a writer replaces the value: every read is one of
    /// the values registered, never a freed one (run under TSan/ASan to see the difference).
    @Test func readersWhileAWriterReplacesTheValueSeeOnlyRegisteredValues() {
        let injector = DependencyInjector()
        injector.register(Service(label: "0"))
        let bad = Counter()
        runOnThreads(3) { thread in
            if thread == 0 {
                for round in 1...2_000 { injector.register(Service(label: "\(round)")) }
            } else {
                for _ in 0..<20_000 {
                    guard let service = try? injector.resolve(Service.self), Int(service.label) != nil else {
                        bad.increment()
                        continue
                    }
                }
            }
        }
        #expect(bad.value == 0)
        #expect((try? injector.resolve(Service.self).label) == "2000")
    }
}
