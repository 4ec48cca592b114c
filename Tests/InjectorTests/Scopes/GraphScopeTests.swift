import Injector
import Testing

// A screen whose parts share one router within a resolve (a VIPER-style module).
final class Router: Sendable {}

final class Interactor: Sendable {
    let router: Router
    init(router: Router) { self.router = router }
}

final class ScreenPresenter: Sendable {
    let router: Router
    let interactor: Interactor
    init(router: Router, interactor: Interactor) {
        self.router = router
        self.interactor = interactor
    }
}

final class Screen: Sendable {
    let router: Router
    let presenter: ScreenPresenter
    init(router: Router, presenter: ScreenPresenter) {
        self.router = router
        self.presenter = presenter
    }
}

extension FaceInjector {
    /// Registers the screen module: `Router` in `routerScope`, the rest transient.
    func registerScreen(routerScope: Scope) async {
        await register(Router.self, scope: routerScope) { Router() }
        await register(Interactor.self, resolving: Router.self) { Interactor(router: $0) }
        switch base {
        case .sync(let injector):
            injector.register(ScreenPresenter.self) { r in
                try ScreenPresenter(router: r.resolve(), interactor: r.resolve())
            }
            injector.register(Screen.self) { r in try Screen(router: r.resolve(), presenter: r.resolve()) }
        case .async(let injector):
            await injector.register(ScreenPresenter.self) { r in
                try await ScreenPresenter(router: r.resolve(), interactor: r.resolve())
            }
            await injector.register(Screen.self) { r in try await Screen(router: r.resolve(), presenter: r.resolve()) }
        }
    }
}

/// `.graph`: one value per top-level resolve, shared by every request inside it.
@Suite struct GraphScopeTests {
    @Test(arguments: Face.allCases)
    func everyPartOfOneResolveSharesTheGraphValue(face: Face) async throws {
        let injector = face.makeInjector()
        await injector.registerScreen(routerScope: .graph)

        let screen = try await injector.resolve(Screen.self)
        #expect(screen.router === screen.presenter.router)
        #expect(screen.router === screen.presenter.interactor.router)
    }

    @Test(arguments: Face.allCases)
    func theNextResolveGetsNewValues(face: Face) async throws {
        let injector = face.makeInjector()
        await injector.registerScreen(routerScope: .graph)

        let first = try await injector.resolve(Screen.self)
        let second = try await injector.resolve(Screen.self)
        #expect(first.router !== second.router)
        #expect(try await injector.resolve(Router.self) !== injector.resolve(Router.self))  // each its own graph
    }

    @Test(arguments: Face.allCases)
    func aTransientRouterIsNotShared(face: Face) async throws {
        let injector = face.makeInjector()
        await injector.registerScreen(routerScope: .transient)

        let screen = try await injector.resolve(Screen.self)
        #expect(screen.router !== screen.presenter.router)
    }

    @Test(arguments: Face.allCases)
    func aCycleThroughGraphValuesIsStillACycle(face: Face) async {
        let injector = face.makeInjector()
        await injector.register(NodeA.self, scope: .graph, resolving: NodeB.self) { _ in NodeA() }
        await injector.register(NodeB.self, scope: .graph, resolving: NodeA.self) { _ in NodeB() }

        let error = await injector.resolveError(NodeA.self)
        guard case .circularDependency(let path) = error else {
            Issue.record("expected a cycle, got \(String(describing: error))")
            return
        }
        #expect(path == [DependencyKey(NodeA.self), DependencyKey(NodeB.self), DependencyKey(NodeA.self)])
    }

    @Test func graphValuesAreSharedPerThreadUnderConcurrency() async throws {
        let injector = DependencyInjector()
        await FaceInjector(.sync(injector)).registerScreen(routerScope: .graph)

        let screens = try await withThrowingTaskGroup(of: Screen.self) { group in
            for _ in 0..<200 { group.addTask { try injector.resolve(Screen.self) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(
            screens.allSatisfy { $0.router === $0.presenter.router && $0.router === $0.presenter.interactor.router })
        #expect(Set(screens.map { ObjectIdentifier($0.router) }).count == 200)
    }

    /// A task that a factory started, resolving a `.graph` key after the resolve that started
    /// it returned, begins a resolve of its own: it gets a new value, not one shared with
    /// the resolve that has ended.
    @Test(arguments: Face.allCases)
    func aTaskAFactoryStartedSharesNoGraphValueWithTheEndedResolve(face: Face) async throws {
        let injector = face.makeInjector()
        let (gate, open) = AsyncStream<Void>.makeStream()
        let (later, report) = AsyncStream<Service>.makeStream()
        await injector.register(Service.self, scope: .graph) { Service() }
        await injector.register(Dependent.self, resolving: Service.self) { service in
            Task {
                for await _ in gate {}
                if let service = try? await injector.resolve(Service.self) { report.yield(service) }
                report.finish()
            }
            return Dependent(service: service)
        }
        let dependent = try await injector.resolve(Dependent.self)
        open.finish()
        var iterator = later.makeAsyncIterator()
        let resolvedLater = try #require(await iterator.next())
        #expect(resolvedLater !== dependent.service)
    }
}

/// Two halves of one screen, built in child tasks of one resolve.
private final class SplitScreen: Sendable {
    let left: Router
    let right: Router
    init(left: Router, right: Router) {
        self.left = left
        self.right = right
    }
}

/// `.graph` on the actor face, where a resolve's child tasks may ask for one value at once.
@Suite struct GraphScopeChildTaskTests {
    /// Registers `Router` as `.graph` with a factory that counts its runs in `runs` and lets
    /// other tasks run before it returns, and `SplitScreen`, which asks for it in two child
    /// tasks, the second once the first's run has begun.
    private func register(in injector: AsyncDependencyInjector, counting runs: Counter) async {
        await injector.register(Router.self, scope: .graph) { _ in
            runs.increment()
            // Long enough for the other child task to ask meanwhile: it must await this run.
            for _ in 0..<100 { await Task.yield() }
            return Router()
        }
        await injector.register(SplitScreen.self) { r in
            let runsBefore = runs.value
            async let left = r.resolve(Router.self)
            async let right: Router = {
                while runs.value == runsBefore { await Task.yield() }  // the run has begun
                return try await r.resolve(Router.self)
            }()
            return try await SplitScreen(left: left, right: right)
        }
    }

    /// A `.graph` registration of the sync face's is shared within an actor-face resolve as an
    /// async one is: every part, and child tasks asking at once. (Catches: the core made it
    /// anew for each request, two routers in one screen.)
    @Test func aSynchronousGraphValueIsSharedWithinAnActorFaceResolve() async throws {
        let injector = AsyncDependencyInjector()
        let runs = Counter()
        injector.synchronous.register(Router.self, scope: .graph) { _ in
            runs.increment()
            return Router()
        }
        await injector.register(Interactor.self) { r in try await Interactor(router: r.resolve()) }
        await injector.register(ScreenPresenter.self) { r in
            try await ScreenPresenter(router: r.resolve(), interactor: r.resolve())
        }
        await injector.register(SplitScreen.self) { r in
            async let left = r.resolve(Router.self)
            async let right = r.resolve(Router.self)
            return try await SplitScreen(left: left, right: right)
        }
        let presenter = try await injector.resolve(ScreenPresenter.self)
        #expect(presenter.router === presenter.interactor.router)
        #expect(runs.value == 1)
        try await expectOneRouterPerSplitScreen(from: injector, runs: runs)
    }

    /// A synchronous factory of an actor-face resolve that asks for a sync `.graph` value gets
    /// the resolve's one value, which its async factories get too, in either order. (Catches:
    /// the core's resolve inside the synchronous factory made a second router.)
    @Test(arguments: [true, false])
    func aSynchronousFactoryInAnActorFaceResolveSharesItsGraphValue(synchronousFirst: Bool) async throws {
        let injector = AsyncDependencyInjector()
        let runs = Counter()
        injector.synchronous.register(Router.self, scope: .graph) { _ in
            runs.increment()
            return Router()
        }
        injector.synchronous.register(Interactor.self) { r in try Interactor(router: r.resolve()) }
        await injector.register(ScreenPresenter.self) { r in
            if synchronousFirst {
                let interactor = try await r.resolve(Interactor.self)
                return try await ScreenPresenter(router: r.resolve(), interactor: interactor)
            }
            let router = try await r.resolve(Router.self)
            return try await ScreenPresenter(router: router, interactor: r.resolve())
        }
        for round in 1...3 {
            let presenter = try await injector.resolve(ScreenPresenter.self)
            #expect(presenter.router === presenter.interactor.router)
            #expect(runs.value == round)  // one router per resolve
        }
    }

    /// A sync `.graph` factory that throws a `CancellationError` fails the actor-face resolve
    /// once, as any failing factory does. (Catches: taken for a registration replaced while it
    /// was made, the resolve looked the key up again and ran the factory for ever.)
    @Test func aSynchronousGraphFactoryThatThrowsCancellationFailsTheResolveOnce() async throws {
        let injector = AsyncDependencyInjector()
        let runs = Counter()
        injector.synchronous.register(Router.self, scope: .graph) { _ -> Router in
            runs.increment()
            throw CancellationError()
        }
        await injector.register(Interactor.self) { r in try await Interactor(router: r.resolve()) }
        let error = await injectionError { try await injector.resolve(Interactor.self) }
        guard case .factoryFailed(let key, _, let underlying)? = error else {
            Issue.record("expected factoryFailed, got \(String(describing: error))")
            return
        }
        #expect(key == DependencyKey(Router.self))
        #expect(underlying is CancellationError)
        #expect(runs.value == 1)
    }

    @Test func twoChildTasksAskingAtOnceShareOneValue() async throws {
        let injector = AsyncDependencyInjector()
        let runs = Counter()
        await register(in: injector, counting: runs)
        try await expectOneRouterPerSplitScreen(from: injector, runs: runs)
    }

    /// Resolves 20 split screens: each shares one router between its halves, made by one run.
    private func expectOneRouterPerSplitScreen(from injector: AsyncDependencyInjector, runs: Counter) async throws {
        let runsBefore = runs.value
        for round in 1...20 {
            let screen = try await injector.resolve(SplitScreen.self)
            #expect(screen.left === screen.right)
            #expect(runs.value == runsBefore + round)  // one run per resolve
        }
    }

    /// Observed, the value is created once; the other requests, the awaiting child task's
    /// among them, are cache hits, as on the sync face.
    @Test func anObserverSeesOneCreationAndCacheHits() async throws {
        let injector = AsyncDependencyInjector()
        let events = Collected<ResolutionEvent>()
        await injector.observe { events.append($0) }
        await register(in: injector, counting: Counter())

        let screen = try await injector.resolve(SplitScreen.self)
        #expect(screen.left === screen.right)
        let routers = events.values.filter { $0.key == DependencyKey(Router.self) }
        #expect(routers.count == 2)
        #expect(routers.filter(\.isCacheHit).count == 1)
    }

    @Test func aFailedCreationFailsTheTasksThatAwaitedIt() async {
        struct Offline: Error {}
        let injector = AsyncDependencyInjector()
        let runs = Counter()
        let asking = Counter()
        await injector.register(Router.self, scope: .graph) { _ -> Router in
            runs.increment()
            // Until the other child task asks, and long enough after for it to wait for this run.
            while asking.value == 0 { await Task.yield() }
            for _ in 0..<100 { await Task.yield() }
            throw Offline()
        }
        await injector.register(SplitScreen.self) { r in
            let runsBefore = runs.value
            async let left = r.resolve(Router.self)
            async let right: Router = {
                while runs.value == runsBefore { await Task.yield() }  // the run has begun
                asking.increment()
                return try await r.resolve(Router.self)
            }()
            var errors: [InjectionError?] = []
            do { _ = try await left } catch { errors.append(error as? InjectionError) }
            do { _ = try await right } catch { errors.append(error as? InjectionError) }
            #expect(errors.count == 2)
            for error in errors {
                guard case .factoryFailed(let key, _, let underlying)? = error else {
                    Issue.record("expected the factory's failure, got \(String(describing: error))")
                    continue
                }
                #expect(key == DependencyKey(Router.self))
                #expect(underlying is Offline)
            }
            return SplitScreen(left: Router(), right: Router())
        }

        _ = try? await injector.resolve(SplitScreen.self)
        #expect(runs.value == 1)  // the other child task awaited this run, and got its failure
    }

    /// Tasks a factory started, resolving the key after the resolve ended, each begin a
    /// resolve of their own, as on the sync face.
    @Test func tasksThatOutliveTheResolveEachGetTheirOwnValue() async throws {
        let injector = AsyncDependencyInjector()
        let runs = Counter()
        let (gate, open) = AsyncStream<Void>.makeStream()
        let late = Collected<Task<Router, any Error>>()
        await injector.register(Router.self, scope: .graph) { _ in
            runs.increment()
            for _ in 0..<100 { await Task.yield() }
            return Router()
        }
        await injector.register(Pair.self) { _ in
            for _ in 0..<2 {
                late.append(
                    Task {
                        for await _ in gate {}
                        return try await injector.resolve(Router.self)
                    })
            }
            return Pair()
        }
        _ = try await injector.resolve(Pair.self)
        open.finish()
        let values = try await [late.values[0].value, late.values[1].value]
        #expect(values[0] !== values[1])
        #expect(runs.value == 2)
    }

    /// A task the graph factory starts and leaves, which waits for a value the resolve's other
    /// child task makes, is no cycle for that child task's wait for the graph value.
    @Test func aTaskTheFactoryLeavesRunningMakesNoCycle() async throws {
        let injector = AsyncDependencyInjector()
        await injector.register(Router.self, scope: .graph) { r in
            Task { _ = try? await r.resolve(Interactor.self) }  // not awaited
            for _ in 0..<200 { await Task.yield() }
            return Router()
        }
        await injector.register(Interactor.self, scope: .graph) { r in
            for _ in 0..<50 { await Task.yield() }
            return try await Interactor(router: r.resolve())
        }
        await injector.register(Pair.self) { r in
            async let router = r.resolve(Router.self)
            async let interactor = r.resolve(Interactor.self)
            _ = try await (router, interactor)
            return Pair()
        }
        for _ in 0..<10 { _ = try await injector.resolve(Pair.self) }
    }

    @Test func aCycleThroughGraphValuesInTwoChildTasksIsReportedNotAwaited() async {
        let injector = AsyncDependencyInjector()
        await injector.register(NodeA.self, scope: .graph) { r in
            for _ in 0..<50 { await Task.yield() }
            _ = try await r.resolve(NodeB.self)
            return NodeA()
        }
        await injector.register(NodeB.self, scope: .graph) { r in
            for _ in 0..<50 { await Task.yield() }
            _ = try await r.resolve(NodeA.self)
            return NodeB()
        }
        await injector.register(Pair.self) { r in
            async let a = r.resolve(NodeA.self)
            async let b = r.resolve(NodeB.self)
            _ = try await (a, b)
            return Pair()
        }

        for _ in 0..<10 {
            let error = await #expect(throws: InjectionError.self) { try await injector.resolve(Pair.self) }
            guard case .circularDependency(let path)? = error else {
                Issue.record("expected a cycle, got \(String(describing: error))")
                continue
            }
            #expect(path.contains(DependencyKey(NodeA.self)) && path.contains(DependencyKey(NodeB.self)))
        }
    }
}

private final class Pair: Sendable {}
