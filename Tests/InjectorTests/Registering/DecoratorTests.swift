import Injector
import TestSupport
import Testing

/// The service the decorators wrap: each layer says what it is, innermost last.
protocol Salutation: Sendable {
    var layers: [String] { get }
}

final class PlainSalutation: Salutation {
    let layers = ["base"]
}

final class Layer: Salutation {
    let name: String
    let inner: any Salutation
    var layers: [String] { [name] + inner.layers }

    init(_ name: String, _ inner: any Salutation) {
        self.name = name
        self.inner = inner
    }
}

/// Counts the runs of a factory or a decorator, from any thread.
typealias Runs = Counter

extension Counter {
    func note() { increment() }
}

struct DecoratorFailure: Error {}

extension FaceInjector {
    /// Adds a decorator that wraps the value in a `Layer` named `name`, on this face.
    func decorate(_ name: String, runs: Runs? = nil, failing: Bool = false) async {
        switch base {
        case .sync(let injector):
            injector.decorate((any Salutation).self) { _, inner in
                runs?.note()
                if failing { throw DecoratorFailure() }
                return Layer(name, inner)
            }
        case .async(let injector):
            await injector.decorate((any Salutation).self) { _, inner in
                runs?.note()
                if failing { throw DecoratorFailure() }
                return Layer(name, inner)
            }
        }
    }

    /// Registers `PlainSalutation` as `any Salutation` in `scope`, counting its factory's runs.
    func registerGreeter(scope: Scope, runs: Runs? = nil) async {
        await register((any Salutation).self, scope: scope) {
            runs?.note()
            return PlainSalutation()
        }
    }
}

/// Decorators (issue 30, item 2): wrapping a registered service without touching its registration.
@Suite struct DecoratorTests {
    @Test(arguments: Face.allCases)
    func decoratorsStackInTheOrderTheyWereAddedAndASingletonIsDecoratedOnce(face: Face) async throws {
        let injector = face.makeInjector()
        let (factoryRuns, decoratorRuns) = (Runs(), Runs())
        await injector.registerGreeter(scope: .singleton, runs: factoryRuns)
        await injector.decorate("retrying", runs: decoratorRuns)
        await injector.decorate("logging", runs: decoratorRuns)

        let first = try await injector.resolve((any Salutation).self)
        let second = try await injector.resolve((any Salutation).self)

        #expect(first.layers == ["logging", "retrying", "base"])
        #expect(first as AnyObject === second as AnyObject)
        #expect(factoryRuns.value == 1)
        #expect(decoratorRuns.value == 2)  // each layer once, for the one value kept
    }

    @Test(arguments: Face.allCases)
    func aDecoratorAddedBeforeTheRegistrationAppliesAndAReRegistrationKeepsIt(face: Face) async throws {
        let injector = face.makeInjector()
        await injector.decorate("logging")
        await injector.registerGreeter(scope: .transient)
        #expect(try await injector.resolve((any Salutation).self).layers == ["logging", "base"])

        await injector.registerGreeter(scope: .singleton)  // replaced: still decorated
        #expect(try await injector.resolve((any Salutation).self).layers == ["logging", "base"])
    }

    @Test(arguments: Face.allCases)
    func aTransientIsDecoratedOnEveryResolve(face: Face) async throws {
        let injector = face.makeInjector()
        let decoratorRuns = Runs()
        await injector.registerGreeter(scope: .transient)
        await injector.decorate("logging", runs: decoratorRuns)

        let first = try await injector.resolve((any Salutation).self)
        let second = try await injector.resolve((any Salutation).self)

        #expect(first.layers == ["logging", "base"])
        #expect(first as AnyObject !== second as AnyObject)
        #expect(decoratorRuns.value == 2)
    }

    @Test func aDecoratorResolvesItsOwnDependenciesThroughTheInjectorThatMakesTheValue() throws {
        let app = DependencyInjector()
        app.register(String.self, name: "prefix") { _ in "app" }
        app.register((any Salutation).self) { _ in PlainSalutation() }
        app.decorate((any Salutation).self) { r, inner in try Layer(r.resolve(String.self, name: "prefix"), inner) }
        let child = app.child()
        child.register(String.self, name: "prefix") { _ in "child" }

        #expect(try app.resolve((any Salutation).self).layers == ["app", "base"])
        #expect(try child.resolve((any Salutation).self).layers == ["child", "base"])  // a transient the child makes
    }

    @Test(arguments: Face.allCases)
    func aKeyThatForwardsToADecoratedRegistrationGetsTheDecoratedValue(face: Face) async throws {
        let injector = face.makeInjector()
        switch injector.base {
        case .sync(let sync):
            sync.register((any Salutation).self, scope: .singleton) { _ in PlainSalutation() }
                .implements((any Salutation).self, name: "alias")
        case .async(let async):
            await async.register((any Salutation).self, scope: .singleton) { _ in PlainSalutation() }
                .implements((any Salutation).self, name: "alias")
        }
        await injector.decorate("logging")

        let forwarded = try await injector.resolve((any Salutation).self, name: "alias")
        #expect(forwarded.layers == ["logging", "base"])
        #expect(try await injector.resolve((any Salutation).self) as AnyObject === forwarded as AnyObject)
    }

    @Test(arguments: Face.allCases)
    func aTestScopeAddsASpyWithoutReRegisteringAndTheAppKeepsItsValue(face: Face) async throws {
        let app = face.makeInjector()
        await app.registerGreeter(scope: .singleton)
        await app.decorate("retrying")
        let appValue = try await app.resolve((any Salutation).self)

        switch app.base {
        case .sync(let injector):
            try injector.withOverrides { test in
                test.decorate((any Salutation).self) { _, inner in Layer("spy", inner) }
            } operation: {
                let inTest = try DependencyInjector.current.resolve((any Salutation).self)
                #expect(inTest.layers == ["spy", "retrying", "base"])  // the app's decorator inside the test's
                #expect(
                    try DependencyInjector.current.resolve((any Salutation).self) as AnyObject === inTest as AnyObject)
            }
        case .async(let injector):
            try await injector.withOverrides { test in
                await test.decorate((any Salutation).self) { _, inner in Layer("spy", inner) }
            } operation: {
                let inTest = try await AsyncDependencyInjector.current.resolve((any Salutation).self)
                #expect(inTest.layers == ["spy", "retrying", "base"])
            }
        }
        #expect(try await app.resolve((any Salutation).self) as AnyObject === appValue as AnyObject)
        #expect(appValue.layers == ["retrying", "base"])
    }

    @Test func aPlainChildDecoratesWhatItMakesAndSharesItsParentsSingletonAsItIs() throws {
        let app = DependencyInjector()
        app.register((any Salutation).self, scope: .singleton) { _ in PlainSalutation() }
        app.register((any Salutation).self, name: "per call") { _ in PlainSalutation() }
        let child = app.child()
        child.decorate((any Salutation).self) { _, inner in Layer("child", inner) }
        child.decorate((any Salutation).self, name: "per call") { _, inner in Layer("child", inner) }

        #expect(try child.resolve((any Salutation).self).layers == ["base"])
        #expect(try child.resolve((any Salutation).self, name: "per call").layers == ["child", "base"])
        #expect(try app.resolve((any Salutation).self, name: "per call").layers == ["base"])
        let info = try #require(child.registrations.first { $0.key == DependencyKey((any Salutation).self) })
        #expect(info.decorators.isEmpty)  // the parent makes it, with no decorator of the child's
    }

    @Test(arguments: Face.allCases)
    func aDecoratorAddedToAnAncestorAfterDecoratedResolvesWrapsWhatItsDescendantsMakeNext(face: Face) async throws {
        let app = face.makeInjector()
        await app.registerGreeter(scope: .transient)
        await app.decorate("retrying")
        let (plain, spied) = (app.child(), app.child())
        await spied.decorate("spy")
        #expect(try await plain.resolve((any Salutation).self).layers == ["retrying", "base"])
        #expect(try await spied.resolve((any Salutation).self).layers == ["spy", "retrying", "base"])

        await app.decorate("logging")

        #expect(try await app.resolve((any Salutation).self).layers == ["logging", "retrying", "base"])
        #expect(try await plain.resolve((any Salutation).self).layers == ["logging", "retrying", "base"])
        #expect(try await spied.resolve((any Salutation).self).layers == ["spy", "logging", "retrying", "base"])
    }

    @Test(arguments: Face.allCases)
    func aFailingDecoratorFailsTheResolveAndNothingIsKept(face: Face) async throws {
        let injector = face.makeInjector()
        let factoryRuns = Runs()
        await injector.registerGreeter(scope: .singleton, runs: factoryRuns)
        await injector.decorate("broken", failing: true)

        let error = try #require(await injector.resolveError((any Salutation).self))
        guard case .factoryFailed(let key, _, let underlying) = error else {
            Issue.record("expected factoryFailed, got \(error)")
            return
        }
        #expect(key == DependencyKey((any Salutation).self))
        #expect(underlying is DecoratorFailure)
        _ = await injector.resolveError((any Salutation).self)
        #expect(factoryRuns.value == 2)  // not kept: made again
    }

    @Test func decoratingAKeptValueLetsItGoSoThatTheNextResolveIsDecorated() throws {
        let injector = DependencyInjector()
        let tornDown = Runs()
        injector.register((any Salutation).self, scope: .singleton) { _ in PlainSalutation() }
            .teardown { _ in tornDown.note() }
        let before = try injector.resolve((any Salutation).self)

        injector.decorate((any Salutation).self) { _, inner in Layer("late", inner) }

        #expect(tornDown.value == 1)
        let after = try injector.resolve((any Salutation).self)
        #expect(after.layers == ["late", "base"])
        #expect((after as? Layer)?.inner as AnyObject !== before as AnyObject)
    }

    @Test func aGraphValueIsSharedDecoratedWithinOneResolve() throws {
        final class Pair: Sendable {
            let first: any Salutation
            let second: any Salutation
            init(_ first: any Salutation, _ second: any Salutation) {
                (self.first, self.second) = (first, second)
            }
        }
        let injector = DependencyInjector()
        injector.register((any Salutation).self, scope: .graph) { _ in PlainSalutation() }
        injector.decorate((any Salutation).self) { _, inner in Layer("logging", inner) }
        injector.register(Pair.self) { r in try Pair(r.resolve(), r.resolve()) }

        let pair = try injector.resolve(Pair.self)

        #expect(pair.first.layers == ["logging", "base"])
        #expect(pair.first as AnyObject === pair.second as AnyObject)
    }

    @Test func registrationsAndTheGraphShowTheLayersInnermostFirst() throws {
        let injector = DependencyInjector()
        injector.register((any Salutation).self) { _ in PlainSalutation() }
        injector.decorate((any Salutation).self) { _, inner in Layer("retrying", inner) }
        injector.decorate((any Salutation).self) { _, inner in Layer("logging", inner) }

        let info = try #require(injector.registrations.first { $0.key == DependencyKey((any Salutation).self) })
        #expect(info.decorators.count == 2)
        #expect(info.decorators.map(\.line) == info.decorators.map(\.line).sorted())  // added in this order
        #expect(info.description.contains("decorated 2 times"))
        let node = try #require(injector.graph().nodes.first { $0.key == info.key })
        #expect(node.decorators == info.decorators)
        #expect(injector.graph().dot.contains("decorated at"))
    }

    @Test func verifyRunsTheDecoratorsAndReportsAFailingOne() throws {
        let injector = DependencyInjector()
        injector.register((any Salutation).self) { _ in PlainSalutation() }
        injector.decorate((any Salutation).self) { r, inner in try Layer(r.resolve(String.self), inner) }

        let error = try #require(throws: VerificationError.self) { try injector.verify() }
        #expect(error.description.contains("Swift.String"))
    }

    @Test func aFailedInstallTakesBackItsDecoratorsAndASealedInjectorRefusesThem() throws {
        struct Decorating: DependencyModule {
            func register(in injector: DependencyInjector) throws(InjectionError) {
                injector.decorate((any Salutation).self) { _, inner in Layer("module", inner) }
                _ = try injector.resolve(Int.self, name: "not registered")  // fails the installation
            }
        }
        let injector = DependencyInjector()
        injector.register((any Salutation).self) { _ in PlainSalutation() }
        #expect(throws: (any Error).self) { try injector.install(Decorating()) }
        #expect(try injector.resolve((any Salutation).self).layers == ["base"])

        injector.seal()
        injector.decorate((any Salutation).self) { _, inner in Layer("late", inner) }
        #expect(try injector.resolve((any Salutation).self).layers == ["base"])
    }

    @Test func anAsyncDecoratorAwaitsAndASynchronousOneRunsOnTheActorFaceToo() async throws {
        let server = AsyncDependencyInjector()
        await server.register(String.self) { _ in "cache" }
        await server.register((any Salutation).self, scope: .singleton) { _ in PlainSalutation() }
        server.synchronous.decorate((any Salutation).self) { _, inner in Layer("sync", inner) }
        await server.decorate((any Salutation).self) { r, inner in try await Layer(r.resolve(String.self), inner) }

        #expect(try await server.resolve((any Salutation).self).layers == ["cache", "sync", "base"])
    }

    @Test func anAsyncDecoratorOfAValueMadeBySynchronousFactoryFailsWithAnErrorThatSaysWhatToDo() async throws {
        let server = AsyncDependencyInjector()
        server.synchronous.register((any Salutation).self) { _ in PlainSalutation() }
        await server.decorate((any Salutation).self) { _, inner in Layer("async", inner) }

        let error = await #expect(throws: InjectionError.self) { try await server.resolve((any Salutation).self) }
        #expect(error?.description.contains("synchronous.decorate") == true)
    }

    @Test(arguments: Face.allCases)
    func aSingletonRacedByManyTasksIsMadeAndDecoratedOnce(face: Face) async throws {
        let injector = face.makeInjector()
        let (factoryRuns, decoratorRuns) = (Runs(), Runs())
        await injector.registerGreeter(scope: .singleton, runs: factoryRuns)
        await injector.decorate("logging", runs: decoratorRuns)

        let identities = try await withThrowingTaskGroup(of: ObjectIdentifier.self) { group in
            for _ in 0..<32 {
                group.addTask { try await ObjectIdentifier(injector.resolve((any Salutation).self) as AnyObject) }
            }
            return try await group.reduce(into: Set()) { $0.insert($1) }
        }

        #expect(identities.count == 1)
        #expect(factoryRuns.value == 1)
        #expect(decoratorRuns.value == 1)
    }

    /// Under the thread sanitizer in CI: the first resolves of a decorated singleton race on 8
    /// threads while another key is decorated.
    @Test func threadsRacingTheFirstResolveOfADecoratedSingletonGetOneValueDecoratedOnce() {
        let injector = DependencyInjector()
        let (factoryRuns, decoratorRuns) = (Runs(), Runs())
        injector.register((any Salutation).self, scope: .singleton) { _ in
            factoryRuns.note()
            return PlainSalutation()
        }
        injector.decorate((any Salutation).self) { _, inner in
            decoratorRuns.note()
            return Layer("logging", inner)
        }
        let seen = Collected<ObjectIdentifier>()

        runOnThreads(8) { thread in
            // A type of this suite's own: a decorated type's resolves leave the fast path in
            // the whole process, which other suites' stack-depth tests would feel.
            if thread == 0 { injector.decorate(Layer.self, name: "other") { _, inner in inner } }
            if let value = try? injector.resolve((any Salutation).self) {
                seen.append(ObjectIdentifier(value as AnyObject))
            }
        }

        #expect(seen.values.count == 8)
        #expect(Set(seen.values).count == 1)
        #expect(factoryRuns.value == 1)
        #expect(decoratorRuns.value == 1)
    }
}
