import Injector
import TestSupport
import Testing

private final class Greeting {
    @Inject var greeter: any Greeter
}

/// `withOverrides` on both faces: a child that keeps its own singletons, configured by the
/// overrides and bound as the face's `current` while the operation runs.
@Suite struct OverridesTests {
    @Test(arguments: Face.allCases)
    func overridesAreSeenInsideAndTheParentIsUntouchedAfter(face: Face) async throws {
        let app = face.makeInjector()
        await app.register(Service(label: "live"))
        let outside = face.currentInjector

        let seen = try await app.withOverrides({ await $0.register(Service(label: "mock")) }) {
            let scope = face.currentInjector
            #expect(scope.parent?.isIdentical(to: app) == true)
            return try await scope.resolve(Service.self).label
        }
        #expect(seen == "mock")
        #expect(try await app.resolve(Service.self).label == "live")
        #expect(face.currentInjector.isIdentical(to: outside))
    }

    @Test(arguments: Face.allCases)
    func theScopeEndsWhenTheOperationThrows(face: Face) async {
        let app = face.makeInjector()
        let outside = face.currentInjector
        await #expect(throws: SampleError(code: 3)) {
            try await app.withOverrides({ await $0.register(Service(label: "mock")) }) {
                throw SampleError(code: 3)
            }
        }
        #expect(face.currentInjector.isIdentical(to: outside))
        #expect(await !app.isRegistered(Service.self))
    }

    @Test(arguments: Face.allCases)
    func anAncestorsSingletonIsRebuiltWithTheOverridesAndDroppedAfter(face: Face) async throws {
        let app = face.makeInjector()
        await app.register(Service(label: "live"))
        await app.register(Dependent.self, scope: .singleton, resolving: Service.self) { Dependent(service: $0) }
        let appSingleton = try await app.resolve(Dependent.self)

        weak var scopedSingleton: Dependent?
        try await app.withOverrides({ await $0.register(Service(label: "mock")) }) {
            let inside = try await face.currentInjector.resolve(Dependent.self)
            #expect(inside.service.label == "mock")
            #expect(inside !== appSingleton)
            #expect(try await face.currentInjector.resolve(Dependent.self) === inside)  // a singleton in the scope
            scopedSingleton = inside
        }
        #expect(await released { scopedSingleton == nil })
        #expect(try await app.resolve(Dependent.self) === appSingleton)
    }

    /// A test scope keeps its own copy of the app's singleton: the app's registering the key
    /// again is seen at the next resolve through the scope, which lets go of the old copy then.
    @Test func anAncestorsSingletonRegisteredAgainIsRebuiltAndItsOldCopyTornDown() throws {
        let app = DependencyInjector()
        let closed = Collected<String>()
        app.register(Service.self, scope: .singleton) { _ in Service(label: "first") }
            .teardown { closed.append($0.label) }
        try app.withOverrides { _ in
        } operation: { () throws in
            let scope = DependencyInjector.current
            #expect(try scope.resolve(Service.self).label == "first")
            app.register(Service.self, scope: .singleton) { _ in Service(label: "second") }
                .teardown { closed.append($0.label) }
            #expect(try scope.resolve(Service.self).label == "second")
            #expect(closed.values == ["first"])
        }
        #expect(closed.values == ["first", "second"])
    }

    @Test(arguments: Face.allCases)
    func anAncestorsSingletonIsNotCreatedByTheScope(face: Face) async throws {
        let app = face.makeInjector()
        let made = Collected<String>()
        await app.register(Service(label: "live"))
        await app.register(Dependent.self, scope: .singleton, resolving: Service.self) {
            made.append($0.label)
            return Dependent(service: $0)
        }
        try await app.withOverrides({ _ in }) {
            _ = try await face.currentInjector.resolve(Dependent.self)
        }
        _ = try await app.resolve(Dependent.self)
        #expect(made.values == ["live", "live"])  // one copy in the scope, then the app's own
    }

    @Test(arguments: Face.allCases)
    func scopesNestInnermostFirst(face: Face) async throws {
        let app = face.makeInjector()
        await app.register("app", name: "motto")
        await app.register(Service(label: "app"))
        try await app.withOverrides({ await $0.register("outer", name: "motto") }) {
            let outer = face.currentInjector
            try await outer.withOverrides({ await $0.register(Service(label: "inner")) }) { () async throws in
                let inner = face.currentInjector
                #expect(try await inner.resolve(String.self, name: "motto") == "outer")
                #expect(try await inner.resolve(Service.self).label == "inner")
                #expect(inner.parent?.parent?.isIdentical(to: app) == true)
            }
            #expect(try await face.currentInjector.resolve(Service.self).label == "app")
        }
    }

    @Test(arguments: Face.allCases)
    func childTasksInheritTheScope(face: Face) async throws {
        let app = face.makeInjector()
        let labels = try await app.withOverrides({ await $0.register(Service(label: "mock")) }) {
            async let fromChildTask = face.currentInjector.resolve(Service.self).label
            let fromTask = try await Task { try await face.currentInjector.resolve(Service.self).label }.value
            let fromGroup = try await withThrowingTaskGroup(of: String.self) { group in
                group.addTask { try await face.currentInjector.resolve(Service.self).label }
                return try await group.next()
            }
            return [try await fromChildTask, fromTask, fromGroup]
        }
        #expect(labels == ["mock", "mock", "mock"])
    }

    @Test(arguments: Face.allCases)
    func parallelScopesNeverShareASingleton(face: Face) async throws {
        let app = face.makeInjector()
        let made = Counter()
        await app.register(Dependent.self, scope: .singleton, resolving: Service.self) {
            made.increment()
            return Dependent(service: $0)
        }
        let labels = try await withThrowingTaskGroup(of: String.self) { group in
            for index in 0..<16 {
                group.addTask {
                    try await app.withOverrides({ await $0.register(Service(label: "scope \(index)")) }) {
                        await Task.yield()
                        return try await face.currentInjector.resolve(Dependent.self).service.label
                    }
                }
            }
            return try await group.reduce(into: Set<String>()) { $0.insert($1) }
        }
        #expect(labels == Set((0..<16).map { "scope \($0)" }))
        #expect(made.value == 16)  // one per scope, none for the app
    }

    @Test func wrappersSeeTheOverridesInsideAndKeepTheirInjectorAfter() throws {
        let app = DependencyInjector()
        app.register(EnglishGreeter() as any Greeter)
        DependencyInjector.$current.withValue(app) {
            let inside = app.withOverrides({ $0.register(FrenchGreeter() as any Greeter) }) { Greeting() }
            #expect(inside.greeter.greet() == "Bonjour")  // kept after the scope ended
            #expect(Greeting().greeter.greet() == "Hello")
        }
        #expect(try app.resolve((any Greeter).self).greet() == "Hello")
    }

    @Test func theActorsOverridesLeaveTheSyncCurrentAlone() async {
        let outside = DependencyInjector.current
        await AsyncDependencyInjector().withOverrides({ _ in }) {
            #expect(DependencyInjector.current === outside)
        }
    }
}
