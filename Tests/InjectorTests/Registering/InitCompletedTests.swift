import Injector
import TestSupport
import Testing

// A VIPER-style login module: the view holds its presenter; the presenter holds its view
// weakly. Each is wired by a hook, as Swinject's `initCompleted` examples do.
// `@unchecked Sendable`: each `var` is set once, by a hook, before any other code sees it.
final class LoginPresenter: @unchecked Sendable {
    weak var view: LoginView?
}

final class LoginView: @unchecked Sendable {
    var presenter: LoginPresenter?
}

/// A singleton whose hook sets its token, counting the hook's runs.
final class Session: @unchecked Sendable {
    var token: String?
}

/// Wires the login module into `injector`, the presenter in `presenterScope`.
func registerLogin(into injector: FaceInjector, presenterScope: Scope) async {
    switch injector.base {
    case .sync(let injector):
        injector.register(LoginView.self, scope: .graph) { _ in LoginView() }
            .initCompleted { r, view in view.presenter = try r.resolve(LoginPresenter.self) }
        injector.register(LoginPresenter.self, scope: presenterScope) { _ in LoginPresenter() }
            .initCompleted { r, presenter in presenter.view = try r.resolve(LoginView.self) }
    case .async(let injector):
        await injector.register(LoginView.self, scope: .graph) { _ in LoginView() }
            .initCompleted { (r: AsyncResolver, view) in
                view.presenter = try await r.resolve(LoginPresenter.self)
            }
        await injector.register(LoginPresenter.self, scope: presenterScope) { _ in LoginPresenter() }
            .initCompleted { (r: AsyncResolver, presenter) in
                presenter.view = try await r.resolve(LoginView.self)
            }
    }
}

/// `initCompleted`: property injection after creation, with back-references, on both faces.
@Suite struct InitCompletedTests {
    @Test(arguments: Face.allCases, [Scope.graph, .singleton, .transient])
    func aViewAndItsPresenterAreWiredThroughTheirHooksWithAWeakBackReference(face: Face, scope: Scope) async throws {
        let injector = face.makeInjector()
        await registerLogin(into: injector, presenterScope: scope)

        let view = try await injector.resolve(LoginView.self)
        let presenter = try #require(view.presenter)
        #expect(presenter.view === view)
    }

    @Test(arguments: Face.allCases)
    func aSingletonsHookRunsOnceAndEveryResolveGetsTheCompletedValue(face: Face) async throws {
        let injector = face.makeInjector()
        let runs = Counter()
        await injector.register("secret", name: "token")
        switch injector.base {
        case .sync(let injector):
            injector.register(Session.self, scope: .singleton) { _ in Session() }
                .initCompleted { r, session in
                    runs.increment()
                    session.token = try r.resolve(String.self, name: "token")
                }
        case .async(let injector):
            await injector.register(Session.self, scope: .singleton) { _ in Session() }
                .initCompleted { (r: AsyncResolver, session) in
                    runs.increment()
                    await Task.yield()  // others ask meanwhile
                    session.token = try await r.resolve(String.self, name: "token")
                }
        }

        let sessions = try await withThrowingTaskGroup(of: Session.self) { group in
            for _ in 0..<50 { group.addTask { try await injector.resolve(Session.self) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(runs.value == 1)
        #expect(Set(sessions.map(ObjectIdentifier.init)).count == 1)
        #expect(sessions.allSatisfy { $0.token == "secret" })
    }

    @Test(arguments: Face.allCases)
    func aThrowingHookFailsTheResolveAndKeepsNothing(face: Face) async throws {
        let injector = face.makeInjector()
        let runs = Counter()
        switch injector.base {
        case .sync(let injector):
            injector.register(LoginPresenter.self, scope: .singleton) { _ in LoginPresenter() }
                .initCompleted { _, _ in if runs.increment() == 1 { throw SampleError(code: 7) } }
        case .async(let injector):
            await injector.register(LoginPresenter.self, scope: .singleton) { _ in LoginPresenter() }
                .initCompleted { (_: AsyncResolver, _) in
                    if runs.increment() == 1 { throw SampleError(code: 7) }
                }
        }

        let error = await injector.resolveError(LoginPresenter.self)
        guard case .factoryFailed(let key, _, let underlying) = error else {
            Issue.record("expected factoryFailed, got \(String(describing: error))")
            return
        }
        #expect(key == DependencyKey(LoginPresenter.self))
        #expect(underlying as? SampleError == SampleError(code: 7))
        #expect(await injector.resolveError(LoginPresenter.self) == nil)  // made and completed afresh
        #expect(runs.value == 2)
    }

    @Test(arguments: Face.allCases)
    func severalHooksRunInTheOrderTheyWereAddedAndAThrowStopsTheRest(face: Face) async throws {
        let injector = face.makeInjector()
        let ran = Collected<String>()
        let failSecond = Counter()
        switch injector.base {
        case .sync(let injector):
            injector.register(Session.self) { _ in Session() }
                .initCompleted { _, session in
                    ran.append("first")
                    session.token = "a"
                }
                .initCompleted { _, session in
                    ran.append("second")
                    if failSecond.increment() == 1 { throw SampleError(code: 2) }
                    session.token! += "b"
                }
                .initCompleted { _, session in
                    ran.append("third")
                    session.token! += "c"
                }
        case .async(let injector):
            await injector.register(Session.self) { _ in Session() }
                .initCompleted { (_: AsyncResolver, session) in
                    ran.append("first")
                    session.token = "a"
                }
                .initCompleted { (_: AsyncResolver, session) in
                    ran.append("second")
                    if failSecond.increment() == 1 { throw SampleError(code: 2) }
                    session.token! += "b"
                }
                .initCompleted { (_: AsyncResolver, session) in
                    ran.append("third")
                    session.token! += "c"
                }
        }

        let error = await injector.resolveError(Session.self)
        guard case .factoryFailed(_, _, let underlying) = error else {
            Issue.record("expected factoryFailed, got \(String(describing: error))")
            return
        }
        #expect(underlying as? SampleError == SampleError(code: 2))
        #expect(ran.values == ["first", "second"])  // the third never ran

        let session = try await injector.resolve(Session.self)
        #expect(session.token == "abc")
        #expect(ran.values == ["first", "second", "first", "second", "third"])
    }

    @Test(arguments: Face.allCases)
    func aRealCycleBetweenFactoriesIsStillReported(face: Face) async {
        let injector = face.makeInjector()
        // The view's factory needs the presenter, whose factory needs the view: no hook helps.
        switch injector.base {
        case .sync(let injector):
            injector.register(LoginPresenter.self, scope: .graph) { r in
                _ = try r.resolve(LoginView.self)
                return LoginPresenter()
            }.initCompleted { _, _ in }
            injector.register(LoginView.self, scope: .graph) { r in
                _ = try r.resolve(LoginPresenter.self)
                return LoginView()
            }
        case .async(let injector):
            await injector.register(LoginPresenter.self, scope: .graph) { r in
                _ = try await r.resolve(LoginView.self)
                return LoginPresenter()
            }.initCompleted { (_: AsyncResolver, _) in }
            await injector.register(LoginView.self, scope: .graph) { r in
                _ = try await r.resolve(LoginPresenter.self)
                return LoginView()
            }
        }

        let error = await injector.resolveError(LoginPresenter.self)
        guard case .circularDependency(let path) = error else {
            Issue.record("expected a cycle, got \(String(describing: error))")
            return
        }
        #expect(
            path.map(\.typeName) == [
                "InjectorTests.LoginPresenter", "InjectorTests.LoginView", "InjectorTests.LoginPresenter",
            ])
    }
}
