import Injector
import TestSupport
import Testing

protocol Middleware: Sendable {
    var label: String { get }
}

struct Labelled: Middleware {
    let label: String
}

final class CountedMiddleware: Middleware {
    let label = "counted"
}

/// Collections and maps of services (multibinding), on both faces: elements contributed by
/// modules, gathered in order, each with its own scope; declared empty collections; a child's
/// policy toward its parent's elements; duplicate map keys; the diagnostics seeing them.
@Suite struct CollectionTests {
    @Test(arguments: Face.allCases)
    func elementsAreGatheredInTheOrderTheyWereRegisteredEachInItsOwnScope(face: Face) async throws {
        let app = face.makeInjector()
        let made = Counter()
        await app.register(into: [any Middleware].self) { _ in Labelled(label: "logging") }
        await app.register(into: [any Middleware].self, scope: .singleton) { _ in
            made.increment()
            return CountedMiddleware()
        }
        await app.register(into: [any Middleware].self) { _ in Labelled(label: "auth") }

        let first = try await app.resolve([any Middleware].self)
        #expect(first.map(\.label) == ["logging", "counted", "auth"])
        let second = try await app.resolve([any Middleware].self)
        #expect(second[1] as AnyObject === first[1] as AnyObject)  // the singleton element, made once
        #expect(made.value == 1)
    }

    @Test(arguments: Face.allCases)
    func aCollectionNobodyContributesToIsAnErrorUnlessDeclared(face: Face) async throws {
        let app = face.makeInjector()
        guard case .notRegistered(let key, _, _)? = await app.resolveError([any Middleware].self) else {
            Issue.record("expected notRegistered for a collection nobody declared")
            return
        }
        #expect(key == DependencyKey([any Middleware].self))

        await app.declareCollection([any Middleware].self)
        #expect(try await app.resolve([any Middleware].self).isEmpty)
    }

    @Test(arguments: Face.allCases)
    func aChildAddsToItsParentsElementsOrReplacesThemAsItsDeclarationSays(face: Face) async throws {
        let app = face.makeInjector()
        await app.register(into: [any Middleware].self) { _ in Labelled(label: "app") }

        let adding = app.child()
        await adding.register(into: [any Middleware].self) { _ in Labelled(label: "child") }
        #expect(try await adding.resolve([any Middleware].self).map(\.label) == ["app", "child"])

        let replacing = app.child()
        await replacing.declareCollection([any Middleware].self, inheriting: .replacing)
        await replacing.register(into: [any Middleware].self) { _ in Labelled(label: "test") }
        #expect(try await replacing.resolve([any Middleware].self).map(\.label) == ["test"])
        // A grandchild of the replacing one adds to it, and the app's stays out.
        let grandchild = replacing.child()
        await grandchild.register(into: [any Middleware].self) { _ in Labelled(label: "grandchild") }
        #expect(try await grandchild.resolve([any Middleware].self).map(\.label) == ["test", "grandchild"])

        #expect(try await app.resolve([any Middleware].self).map(\.label) == ["app"])  // untouched
    }

    @Test(arguments: Face.allCases)
    func anElementsDependenciesComeFromTheInjectorThatResolvesTheCollection(face: Face) async throws {
        let app = face.makeInjector()
        await app.register("production", as: String.self)
        await app.register(into: [any Middleware].self, resolving: String.self) { Labelled(label: $0) }
        let test = app.child()
        await test.register("test", as: String.self)

        #expect(try await test.resolve([any Middleware].self).map(\.label) == ["test"])
        #expect(try await app.resolve([any Middleware].self).map(\.label) == ["production"])
    }

    @Test(arguments: Face.allCases)
    func aMapGathersItsEntriesAndAChildsEntryReplacesItsParentsUnderOneKey(face: Face) async throws {
        let app = face.makeInjector()
        await app.register(into: [String: any Middleware].self, key: "/users") { _ in Labelled(label: "users") }
        await app.register(into: [String: any Middleware].self, key: "/orders") { _ in Labelled(label: "orders") }
        let test = app.child()
        await test.register(into: [String: any Middleware].self, key: "/orders") { _ in Labelled(label: "stub") }

        let routes = try await app.resolve([String: any Middleware].self)
        #expect(routes.mapValues(\.label) == ["/users": "users", "/orders": "orders"])
        let testRoutes = try await test.resolve([String: any Middleware].self)
        #expect(testRoutes.mapValues(\.label) == ["/users": "users", "/orders": "stub"])
    }

    @Test(arguments: Face.allCases)
    func twoEntriesUnderOneKeyOfOneInjectorFailTheMapAndVerifyNamingBoth(face: Face) async throws {
        let app = face.makeInjector()
        switch app.base {  // two call sites
        case .sync(let injector):
            injector.register(into: [String: any Middleware].self, key: "/users") { _ in Labelled(label: "a") }
            injector.register(into: [String: any Middleware].self, key: "/users") { _ in Labelled(label: "b") }
        case .async(let injector):
            await injector.register(into: [String: any Middleware].self, key: "/users") { _ in Labelled(label: "a") }
            await injector.register(into: [String: any Middleware].self, key: "/users") { _ in Labelled(label: "b") }
        }

        let error = await app.resolveError([String: any Middleware].self)
        guard case .factoryFailed(let key, _, let underlying)? = error,
            let duplicate = underlying as? DuplicateCollectionKey
        else {
            Issue.record("expected factoryFailed with DuplicateCollectionKey, got \(String(describing: error))")
            return
        }
        #expect(key == DependencyKey([String: any Middleware].self))
        #expect(duplicate.key == "\"/users\"")
        #expect(duplicate.sites.count == 2 && duplicate.sites[0] != duplicate.sites[1])
        #expect(duplicate.sites.allSatisfy { $0.fileID == "InjectorTests/CollectionTests.swift" })
        let line = face == .sync ? 104 : 107
        #expect(
            error?.description == """
                Injector could not resolve Swift.Dictionary<Swift.String, InjectorTests.Middleware>: its factory threw \
                two elements are registered under the key "/users", at InjectorTests/CollectionTests.swift:\(line) and \
                InjectorTests/CollectionTests.swift:\(line + 1) (remove one, or give it another key).
                To fix: make the factory registered for Swift.Dictionary<Swift.String, InjectorTests.Middleware> \
                succeed; the error above is its own.
                """)
        #expect(await app.verificationError() != nil)
    }

    @Test(arguments: Face.allCases)
    func theDiagnosticsSeeTheCollectionAndEachElement(face: Face) async throws {
        let app = face.makeInjector()
        await app.register("dependency", as: String.self)
        await app.register(into: [any Middleware].self, resolving: String.self) { Labelled(label: $0) }
        await app.register(into: [any Middleware].self) { _ in Labelled(label: "plain") }

        let registrations = await app.registrations
        let collection = DependencyKey([any Middleware].self)
        #expect(registrations.contains { $0.key == collection })
        let elements = registrations.filter { $0.key.type == DependencyKey((any Middleware).self).type }
        #expect(elements.count == 2)
        #expect(elements.allSatisfy { $0.key.name?.hasPrefix("element #") == true })

        let graph = await app.graph()
        for element in elements { #expect(graph.edges.contains { $0.from == collection && $0.to == element.key }) }
        #expect(await app.verificationError() == nil)
    }

    @Test(arguments: Face.allCases)
    func anElementThatFailsFailsTheCollectionWithThePath(face: Face) async throws {
        let app = face.makeInjector()
        await app.register(into: [any Middleware].self, resolving: Int.self) { Labelled(label: "\($0)") }

        guard case .notRegistered(let key, let path, _)? = await app.resolveError([any Middleware].self) else {
            Issue.record("expected notRegistered for the element's dependency")
            return
        }
        #expect(key == DependencyKey(Int.self))
        #expect(path.first == DependencyKey([any Middleware].self))
        #expect(path.count == 3)  // the collection, the element, its dependency
    }

    @Test func injectsAsACollectionThroughAWrapper() throws {
        final class Pipeline {
            @Inject var middleware: [any Middleware]
        }
        let app = DependencyInjector()
        app.register(into: [any Middleware].self) { _ in Labelled(label: "one") }
        app.register(into: [any Middleware].self) { _ in Labelled(label: "two") }
        let pipeline = try app.make { Pipeline() }
        #expect(pipeline.middleware.map(\.label) == ["one", "two"])
    }
}

/// A module that declares the collection `.replacing`, adds an element, then fails.
private struct FailingReplacingModule: DependencyModule {
    func register(in injector: DependencyInjector) throws(InjectionError) {
        injector.declareCollection([any Middleware].self, inheriting: .replacing)
        injector.register(into: [any Middleware].self) { _ in Labelled(label: "module") }
        _ = try injector.resolve(NodeA.self)  // not registered: the install fails
    }
}

/// Collections where registrations meet modules, sealing, strict test scopes and both faces.
@Suite struct CollectionEdgeTests {
    @Test func aFailedInstallLeavesNeitherItsDeclarationNorItsElements() throws {
        let app = DependencyInjector()
        app.register(into: [any Middleware].self) { _ in Labelled(label: "app") }
        let child = app.child()
        #expect(throws: InjectionError.self) { try child.install(FailingReplacingModule()) }
        #expect(try child.resolve([any Middleware].self).map(\.label) == ["app"])
    }

    @Test func aSealedInjectorRefusesADeclarationAsItRefusesARegistration() throws {
        let app = DependencyInjector()
        app.register(into: [any Middleware].self) { _ in Labelled(label: "app") }
        let child = app.child()
        child.register(into: [any Middleware].self) { _ in Labelled(label: "child") }
        child.seal()
        child.declareCollection([any Middleware].self, inheriting: .replacing)
        child.register(into: [any Middleware].self) { _ in Labelled(label: "late") }
        #expect(try child.resolve([any Middleware].self).map(\.label) == ["app", "child"])
    }

    @Test func aStrictTestScopeLetsTheCollectionThroughAndScreensEachElement() throws {
        let app = DependencyInjector()
        app.register(into: [any Middleware].self) { _ in Labelled(label: "app") }
        let allowed = try app.withOverrides(strict: true, allowing: [(any Middleware).self], { _ in }) {
            try DependencyInjector.current.resolve([any Middleware].self).map(\.label)
        }
        #expect(allowed == ["app"])
        let replaced = try app.withOverrides(
            strict: true,
            { test in
                test.declareCollection([any Middleware].self, inheriting: .replacing)
                test.register(into: [any Middleware].self) { _ in Labelled(label: "test") }
            }
        ) {
            try DependencyInjector.current.resolve([any Middleware].self).map(\.label)
        }
        #expect(replaced == ["test"])
        // The app's element, neither allowed nor replaced, is refused.
        var refused: InjectionError?
        withKnownIssue {  // the refusal is recorded on the running test too
            refused = app.withOverrides(strict: true, { _ in }) {
                () -> InjectionError? in
                do throws(InjectionError) {
                    _ = try DependencyInjector.current.resolve([any Middleware].self)
                    return nil
                } catch {
                    return error
                }
            }
        }
        guard case .notProvidedInTest(let key, _, _)? = refused else {
            Issue.record("expected notProvidedInTest, got \(String(describing: refused))")
            return
        }
        #expect(ObjectIdentifier(key.type) == ObjectIdentifier((any Middleware).self))  // an element
    }

    @Test func anElementOfTheActorFaceAfterASynchronousOneIsAwaitedToo() async throws {
        let server = AsyncDependencyInjector()
        server.synchronous.register(into: [any Middleware].self) { _ in Labelled(label: "sync") }
        await server.register(into: [any Middleware].self) { _ in
            await Task.yield()
            return Labelled(label: "async")
        }
        #expect(try await server.resolve([any Middleware].self).map(\.label) == ["sync", "async"])
    }

    @Test func anUnregisteredElementLeavesTheCollection() throws {
        let app = DependencyInjector()
        app.register(into: [any Middleware].self) { _ in Labelled(label: "kept") }
        let dropped = app.register(into: [any Middleware].self) { _ in Labelled(label: "dropped") }
        app.unregister((any Middleware).self, name: dropped.key.name)
        #expect(try app.resolve([any Middleware].self).map(\.label) == ["kept"])
    }

    @Test func theGraphOfAReplacingChildHasNoEdgeToItsParentsElements() {
        let app = DependencyInjector()
        app.register(into: [any Middleware].self) { _ in Labelled(label: "app") }
        let child = app.child()
        child.declareCollection([any Middleware].self, inheriting: .replacing)
        let collection = DependencyKey([any Middleware].self)
        #expect(app.graph().edges.contains { $0.from == collection })
        #expect(!child.graph().edges.contains { $0.from == collection })
    }
}

extension FaceInjector {
    func register<T: Sendable>(
        into collection: [T].Type,
        scope: Scope? = nil,
        _ make: @escaping @Sendable (FaceInjector) throws -> T
    ) async {
        switch base {
        case .sync(let injector):
            injector.register(into: collection, scope: scope) { r in try make(FaceInjector(.sync(r))) }
        case .async(let injector):
            await injector.register(into: collection, scope: scope) { r in try make(FaceInjector(.async(r))) }
        }
    }

    func register<T: Sendable, Dependency: Sendable>(
        into collection: [T].Type,
        resolving dependency: Dependency.Type,
        _ make: @escaping @Sendable (Dependency) throws -> T
    ) async {
        switch base {
        case .sync(let injector):
            injector.register(into: collection) { r in try make(r.resolve(dependency)) }
        case .async(let injector):
            await injector.register(into: collection) { r in try await make(r.resolve(dependency)) }
        }
    }

    func register<Key: Hashable & Sendable, T: Sendable>(
        into map: [Key: T].Type,
        key: Key,
        _ make: @escaping @Sendable (FaceInjector) throws -> T
    ) async {
        switch base {
        case .sync(let injector): injector.register(into: map, key: key) { r in try make(FaceInjector(.sync(r))) }
        case .async(let injector):
            await injector.register(into: map, key: key) { r in try make(FaceInjector(.async(r))) }
        }
    }

    func declareCollection<T: Sendable>(_ collection: [T].Type, inheriting: CollectionInheritance = .adding) async {
        switch base {
        case .sync(let injector): injector.declareCollection(collection, inheriting: inheriting)
        case .async(let injector): await injector.declareCollection(collection, inheriting: inheriting)
        }
    }
}
