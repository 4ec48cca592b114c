import Dispatch
import TestSupport
import Testing

@testable import Injector

/// Where diagnostics meet forwarding and named keys. Each test is a regression: each failed before.
@Suite struct DiagnosticsSeamTests {
    protocol Reporting: Sendable {}
    final class Reporter: Reporting {}
    final class Leaf: Sendable {}
    struct Missing {}
    final class Middle: Sendable {}
    final class Top: Sendable {}
    protocol Unimplemented: Sendable {}
    @MainActor final class MainModel {}

    /// The path of the error `body` throws.
    private static func failedPath(_ body: () async throws -> Void) async -> [DependencyKey]? {
        do {
            try await body()
            return nil
        } catch {
            return (error as? InjectionError)?.path
        }
    }

    struct TeardownFailed: Error {}

    @Test func theDotOfTwoTypesOfOneNameInPrivateContextsKeepsThemApart() {
        let injector = DependencyInjector()
        func one() {
            struct Local: Sendable {}
            injector.register(Local.self) { _ in Local() }
        }
        func two() {
            struct Local: Sendable {}
            injector.register(Local.self) { _ in Local() }
        }
        one()
        two()
        let nodeLines = injector.graph().dot.split(separator: "\n").filter { $0.contains("[label=") }
        let ids = nodeLines.map { $0.split(separator: " [label=").first.map(String.init) ?? "" }
        #expect(ids.count == 2 && Set(ids).count == 2)
    }

    final class Bar: Sendable {}
    final class NeedsBar: Sendable {
        init(bar: Bar) {}
    }

    @Test func aChildsGraphHasNoEdgeOfAnInitializerItOverrides() {
        let app = DependencyInjector()
        app.register(Bar.self) { _ in Bar() }
        app.register(NeedsBar.self, initializer: NeedsBar.init(bar:))
        let child = app.child()
        child.register(NeedsBar.self) { _ in NeedsBar(bar: Bar()) }
        let edge = DependencyGraph.Edge(from: DependencyKey(NeedsBar.self), to: DependencyKey(Bar.self))
        #expect(!child.graph().edges.contains(edge))
        #expect(app.graph().edges.contains(edge))
    }

    @Test func anOptionalOrAProviderHandleIsAnEdgeToWhatItWraps() throws {
        let injector = DependencyInjector()
        injector.register(Bar.self) { _ in Bar() }
        injector.register(Leaf.self) { r in
            _ = try r.resolve(Bar?.self)
            _ = try r.resolve(ProviderHandle<Bar>.self)
            return Leaf()
        }
        try injector.verify()
        let graph = injector.graph()
        #expect(graph.nodes.allSatisfy { $0.kind != nil })  // no node "not registered"
        #expect(graph.edges.contains(.init(from: DependencyKey(Leaf.self), to: DependencyKey(Bar.self))))
    }

    /// Two observations of one injector that overlap without nesting (two threads of a test,
    /// each in `expectNoResolution`) each end, and the observer installed before comes back.
    /// Regression (from a review): the first one's stayed installed.
    @Test func overlappingObservationsEachEnd() {
        let injector = DependencyInjector()
        injector.observe { _ in }
        let installed = injector.registry.withLock { $0.diagnostics.instrumentation }
        let firstIn = DispatchSemaphore(value: 0)
        let secondIn = DispatchSemaphore(value: 0)
        let firstOut = DispatchSemaphore(value: 0)
        let secondDone = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            firstIn.wait()
            injector.observing({ _ in }) {
                secondIn.signal()
                firstOut.wait()  // ends after the first one has
            }
            secondDone.signal()
        }
        injector.observing({ _ in }) {
            firstIn.signal()
            secondIn.wait()  // the second one is on top of this one
        }
        firstOut.signal()
        secondDone.wait()
        #expect(injector.registry.withLock { $0.diagnostics.instrumentation } === installed)
    }

    private struct PrivateModule: DependencyModule {
        func register(in injector: DependencyInjector) {
            injector.register(Bar.self) { _ in Bar() }
        }
    }

    @Test func aPrivateModuleIsNamedReadably() throws {
        let injector = DependencyInjector()
        try injector.install(PrivateModule())
        #expect(injector.module(providing: Bar.self) == "InjectorTests.DiagnosticsSeamTests.PrivateModule (private)")
    }

    @Test func aPreviewScopeAndAnOpenedScopeAreDescribedAsWhatTheyAre() {
        let app = DependencyInjector()
        #expect(app.previewScope().searchedDescription.hasPrefix("a preview scope"))
        #expect(app.openScope().searchedDescription.hasPrefix("an opened scope"))
        #expect(app.testChild(strict: false, allowing: []).searchedDescription.hasPrefix("a test scope"))
    }

    final class Stripe: Reporting {
        init(leaf: Leaf) {}
    }

    @Test func verifyChecksAnInitializerReachedThroughAForwardWithoutCallingIt() async throws {
        let made = Counter()
        let injector = DependencyInjector()
        injector.register(Leaf.self) { _ in Leaf() }
        injector.register(Stripe.self) { (leaf: Leaf) in
            made.increment()
            return Stripe(leaf: leaf)
        }
        .implements((any Reporting).self)
        try injector.verify()
        let actor = AsyncDependencyInjector()
        await actor.register(Leaf.self) { _ in Leaf() }
        await actor.register(Stripe.self) { (leaf: Leaf) in
            made.increment()
            return Stripe(leaf: leaf)
        }
        .implements((any Reporting).self)
        try await actor.verify()
        #expect(made.value == 0)
        // A resolve outside `verify()` builds it, through the forward too.
        #expect(try injector.resolve((any Reporting).self) is Stripe)
        #expect(try await actor.resolve((any Reporting).self) is Stripe)
        #expect(made.value == 2)
    }

    @Test func aTeardownThatThrowsInVerifyIsAProblemItReports() async {
        let injector = DependencyInjector()
        injector.register(Leaf.self, scope: .singleton) { _ in Leaf() }.teardown { _ in throw TeardownFailed() }
        let actor = AsyncDependencyInjector()
        await actor.register(Leaf.self, scope: .singleton) { _ in Leaf() }.teardown { _ in throw TeardownFailed() }
        var errors: [VerificationError] = []
        do { try injector.verify() } catch { errors.append(error) }
        do { try await actor.verify() } catch { errors.append(error) }
        #expect(errors.count == 2)
        for error in errors {
            #expect(error.failures.isEmpty)
            #expect(error.teardownFailures.map(\.key) == [DependencyKey(Leaf.self)])
            #expect(
                error.description.hasPrefix(
                    "Injector found 1 problem in 1 registration:\n\n1. Injector ran every teardown"))
        }
    }

    @Test func aSynchronousFactoryRunByTheActorFaceFailsWithTheWholePath() async {
        let injector = AsyncDependencyInjector()
        injector.synchronous.register(Middle.self) { r in
            _ = try r.resolve(Missing.self)
            return Middle()
        }
        await injector.register(Top.self) { r in
            _ = try await r.resolve(Middle.self)
            return Top()
        }
        let path = await Self.failedPath { _ = try await injector.resolve(Top.self) }
        #expect(path == [DependencyKey(Top.self), DependencyKey(Middle.self), DependencyKey(Missing.self)])
    }

    /// Run on the main actor for a task off it, a main-actor factory's failure has the whole path.
    @Test func aMainActorFactoryAskedForOffTheMainActorFailsWithTheWholePathOnTheActorFace() async {
        struct Unavailable: Error {}
        let injector = AsyncDependencyInjector()
        injector.synchronous.mainActor.register(MainModel.self) { _ -> MainModel in throw Unavailable() }
        await injector.register(Top.self) { r in
            _ = try await r.resolve(MainModel.self)
            return Top()
        }
        let path = await Task.detached { await Self.failedPath { _ = try await injector.resolve(Top.self) } }.value
        #expect(path == [DependencyKey(Top.self), DependencyKey(MainModel.self)])
    }

    @Test func aForwardThatIsNotImplementedEndsItsPathWithTheForwardedKeyOnTheActorFace() async {
        let injector = AsyncDependencyInjector()
        injector.synchronous.register(Leaf.self) { _ in Leaf() }.implements((any Unimplemented).self)
        await injector.register(Top.self) { r in
            _ = try await r.resolve((any Unimplemented).self)
            return Top()
        }
        let path = await Self.failedPath { _ = try await injector.resolve(Top.self) }
        #expect(path == [DependencyKey(Top.self), DependencyKey((any Unimplemented).self)])
    }

    @Test(arguments: Face.allCases)
    func aResolveThroughAForwardedKeyReportsItsTargetToTheObserver(face: Face) async throws {
        let app = face.makeInjector()
        switch app.base {
        case .sync(let injector):
            injector.register(Reporter.self, scope: .singleton) { _ in Reporter() }.implements((any Reporting).self)
        case .async(let injector):
            await injector.register(Reporter.self, scope: .singleton) { _ in Reporter() }
                .implements((any Reporting).self)
        }
        let events = Collected<ResolutionEvent>()
        await app.observe { events.append($0) }
        _ = try await app.resolve((any Reporting).self)
        _ = try await app.resolve((any Reporting).self)
        let targets = events.values.filter { $0.key == DependencyKey(Reporter.self) }
        #expect(targets.map(\.isCacheHit) == [false, true])  // made, then found kept
        #expect(targets.first?.resolvers == [DependencyKey((any Reporting).self)])
    }

    @Test func aForwardRegisteredThroughSynchronousReportsItsTargetOnTheActorFace() async throws {
        let app = AsyncDependencyInjector()
        app.synchronous.register(Reporter.self, scope: .singleton) { _ in Reporter() }.implements((any Reporting).self)
        let events = Collected<ResolutionEvent>()
        await app.observe { events.append($0) }
        _ = try await app.resolve((any Reporting).self)
        let targets = events.values.filter { $0.key == DependencyKey(Reporter.self) }
        #expect(targets.map(\.isCacheHit) == [false])
        #expect(targets.first?.resolvers == [DependencyKey((any Reporting).self)])
    }

    /// The description of what `body` throws.
    private func message(_ body: () throws -> Void) -> String {
        do {
            try body()
            return ""
        } catch {
            return "\(error)"
        }
    }

    @Test func theFixOfEveryErrorAboutANamedKeyKeepsTheName() throws {
        let app = DependencyInjector()
        app.register(Leaf.self, name: "n") { _ in Leaf() }
        app.register(Leaf.self, name: "s", scope: .scoped) { _ in Leaf() }
        app.declareScoped(Leaf.self, name: "d")
        let fixLines = [
            message { _ = try app.resolve(Leaf.self, name: "n", arguments: 1) },
            message { _ = try app.resolve(Leaf.self, name: "s") },
            try app.withScope { request in message { _ = try request.resolve(Leaf.self, name: "d") } },
        ].map { $0.split(separator: "\n").last.map(String.init) ?? "" }
        #expect(fixLines[0].contains("`resolve(InjectorTests.DiagnosticsSeamTests.Leaf.self, name: \"n\")`"))
        #expect(fixLines[1].contains("`request.resolve(InjectorTests.DiagnosticsSeamTests.Leaf.self, name: \"s\")`"))
        #expect(fixLines[2].contains("request.register(value as InjectorTests.DiagnosticsSeamTests.Leaf, name: \"d\")"))
        let refusal = InjectionError.notProvidedInTest(
            DependencyKey(Leaf.self, name: "t"), path: [],
            registeredAt: RegistrationSite(fileID: "App.swift", line: 1, module: nil))
        #expect("\(refusal)".contains("$0.register(… as InjectorTests.DiagnosticsSeamTests.Leaf, name: \"t\")"))
    }
}
