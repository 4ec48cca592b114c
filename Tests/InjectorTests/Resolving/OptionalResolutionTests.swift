import Injector
import Testing

/// Resolving `T?` (issue 15, item 1): it returned `nil` silently, also when `T` was
/// registered. Now it gives the `T` registered under that name, `nil` only when neither `T?`
/// nor `T` is registered, and throws for a broken `T`, on both faces.
@Suite struct OptionalResolutionTests {
    @Test(arguments: Face.allCases)
    func anOptionalResolvesTheRegisteredWrappedType(face: Face) async throws {
        let injector = face.makeInjector()
        await injector.register(Service(label: "plain"))
        await injector.register(Service(label: "named"), name: "special")

        #expect(try await injector.resolve(Service?.self)?.label == "plain")
        #expect(try await injector.resolve(Service?.self, name: "special")?.label == "named")
        #expect(try await injector.resolve(Service?.self, name: "nope") == nil)
        #expect(try await injector.resolve(Dependent?.self) == nil)
        #expect(try await injector.child().resolve(Service?.self)?.label == "plain")  // through the walk
    }

    @Test(arguments: Face.allCases)
    func anExplicitRegistrationOfTheOptionalWins(face: Face) async throws {
        let injector = face.makeInjector()
        await injector.register(Service(label: "wrapped"))
        await injector.register(Service?.none, as: Service?.self)

        #expect(try await injector.resolve(Service?.self) == nil)
    }

    /// A registered `nil` is a registration: resolving `T??` over a `T?` registered as `nil`
    /// gives that `nil` wrapped, not the `nil` of "nothing registered" (the untyped read of
    /// the wrapped key took one for the other).
    @Test(arguments: Face.allCases)
    func aWrappedTypeRegisteredAsNilIsNotMistakenForNothingRegistered(face: Face) async throws {
        let injector = face.makeInjector()
        await injector.register(Service?.none, as: Service?.self)

        let resolved = try await injector.resolve(Service??.self)
        #expect(resolved.map { $0 == nil } == true)
        #expect(try await injector.resolve(Dependent??.self).map { _ in "registered" } == nil)
    }

    @Test(arguments: Face.allCases)
    func aBrokenWrappedTypeThrowsAsItWouldForTheType(face: Face) async {
        let injector = face.makeInjector()
        await injector.register(Service.self) { throw SampleError(code: 7) }
        await injector.register(Dependent.self, resolving: NodeA.self) { _ in Dependent(service: Service()) }

        guard case .factoryFailed(let key, _, let underlying) = await injector.resolveError(Service?.self) else {
            Issue.record("expected factoryFailed")
            return
        }
        #expect(key == DependencyKey(Service.self))
        #expect(underlying as? SampleError == SampleError(code: 7))
        guard case .notRegistered(let missing, let path, _) = await injector.resolveError(Dependent?.self) else {
            Issue.record("expected notRegistered for the dependency of the registered type")
            return
        }
        #expect(missing == DependencyKey(NodeA.self))
        #expect(path == [DependencyKey(Dependent.self), DependencyKey(NodeA.self)])
    }
}
