import Injector
import Testing

/// Defects around the actor face's factories and collections replaced by hand, found by hunt 7.
@Suite struct Hunt7RegressionTests {
    /// AsyncDependencies.md, "Factories may resolve": "A factory, a decorator and an
    /// `initCompleted` hook get an ``AsyncResolver`` of their run, `r`"; AsyncResolver's doc: a
    /// resolve through it once the run ended "is a resolve of its own". A synchronous factory
    /// body that hands `r` on (`{ r in Keeper(resolver: r) }`) is taken by the compiler for the
    /// trailing closure of `register(_:initializer:)`: matching it costs no async conversion, so
    /// that overload wins, and the registration resolves `AsyncResolver` as a parameter, which
    /// nothing registers. (The synchronous face's factory and initializer have the same shape,
    /// and there the factory wins; `factory:` spelled out works on the actor face.)
    @Test
    func aFactoryThatHandsItsResolverOnIsAFactoryOnTheActorFace() async throws {
        let app = AsyncDependencyInjector()
        await app.register(Int.self) { _ in 7 }
        await app.register(ResolverKeeper.self) { r in ResolverKeeper(resolver: r) }
        let keeper = try await app.resolve(ResolverKeeper.self)
        #expect(try await keeper.resolver.resolve(Int.self) == 7)
    }

    /// CollectionsOfServices.md: "Unregistering the collection removes its elements"; "A
    /// registration of the collection's type by hand replaces the collection in that
    /// injector". Once the collection is registered by hand, unregistering it leaves the
    /// elements registered before (`unregister` removes elements only while the collection is
    /// the gathering registration), so they stay in `registrations` and the next
    /// `register(into:)` brings them back into the collection.
    @Test(arguments: Face.allCases)
    func unregisteringACollectionRegisteredByHandRemovesTheElementsItReplaced(face: Face) async throws {
        let (labels, left): ([String], [RegistrationInfo])
        switch face.makeInjector().base {
        case .sync(let app):
            app.register(into: [Service].self) { _ in Service(label: "old") }
            app.register([Service].self) { _ in [Service(label: "by hand")] }
            app.unregister([Service].self)
            left = app.registrations
            app.register(into: [Service].self) { _ in Service(label: "new") }
            labels = try app.resolve([Service].self).map(\.label)
        case .async(let app):
            await app.register(into: [Service].self) { _ in Service(label: "old") }
            await app.register([Service].self) { _ in [Service(label: "by hand")] }
            await app.unregister([Service].self)
            left = await app.registrations
            await app.register(into: [Service].self) { _ in Service(label: "new") }
            labels = try await app.resolve([Service].self).map(\.label)
        }
        #expect(left.isEmpty, "\(left)")
        #expect(labels == ["new"])
    }

    /// CollectionsOfServices.md: "``DependencyInjector/graph()`` has an edge from the
    /// collection to it [each element]", and a registration by hand "replaces the collection
    /// in that injector"; DESIGN.md principle 10. After the replacement the collection's
    /// resolve never reaches the elements, yet `graph()` still draws the collection's edges to
    /// them (the edges come from the collection's element list, not from the registration that
    /// answers the key).
    @Test(arguments: Face.allCases)
    func theGraphOfACollectionRegisteredByHandHasNoEdgesToTheElementsItReplaced(face: Face) async throws {
        let graph: DependencyGraph
        switch face.makeInjector().base {
        case .sync(let app):
            app.register(into: [Service].self) { _ in Service(label: "element") }
            app.register([Service].self) { _ in [Service(label: "by hand")] }
            #expect(try app.resolve([Service].self).map(\.label) == ["by hand"])
            graph = app.graph()
        case .async(let app):
            await app.register(into: [Service].self) { _ in Service(label: "element") }
            await app.register([Service].self) { _ in [Service(label: "by hand")] }
            #expect(try await app.resolve([Service].self).map(\.label) == ["by hand"])
            graph = await app.graph()
        }
        let edges = graph.edges.filter { $0.from == DependencyKey([Service].self) }
        #expect(edges.isEmpty, "\(edges)")
    }
}
