import TestSupport
import Testing

@testable import Injector

/// A closed thing builds nothing (principle 14): after `close()`, a resolve that would create a
/// value to keep throws `closed` before any factory runs — a request that has ended begins no
/// transaction, a shut-down server opens no pool — on both faces.
@Suite struct ClosedBuildsNothingTests {
    struct Pool: Sendable {}
    struct Transaction: Sendable {}
    struct Clock: Sendable {}

    /// `T`, registered with `scope` in `injector`, counting its factory's runs in `made`.
    private func register<T: Sendable>(
        _ type: T.Type,
        scope: Scope,
        in injector: FaceInjector,
        made: Counter,
        make: @escaping @Sendable () -> T
    ) async {
        await injector.register(type, scope: scope, tornDown: { _ in }) {
            _ = made.increment()
            return make()
        }
    }

    /// The key and path of `error`, which should be `closed`.
    private func expectClosed(_ error: InjectionError?, key: DependencyKey, path: [DependencyKey]) {
        guard case .closed(let thrownKey, let thrownPath)? = error else {
            Issue.record("expected closed, got \(String(describing: error))")
            return
        }
        #expect(thrownKey == key)
        #expect(thrownPath == path)
    }

    @Test(arguments: Face.allCases)
    func aClosedScopeRunsNoFactoryForAScopedValue(face: Face) async throws {
        let app = face.makeInjector()
        let made = Counter()
        await register(Transaction.self, scope: .scoped, in: app, made: made) { Transaction() }
        let request = app.openScope()
        try await request.close()

        expectClosed(
            await request.resolveError(Transaction.self), key: DependencyKey(Transaction.self),
            path: [DependencyKey(Transaction.self)])
        // Through a child of the closed scope too: the scope keeps its values, and it is closed.
        expectClosed(
            await request.child().resolveError(Transaction.self), key: DependencyKey(Transaction.self),
            path: [DependencyKey(Transaction.self)])
        #expect(made.value == 0)
    }

    @Test(arguments: Face.allCases)
    func aScopeOpenedUnderAClosedServerBeginsNoRequest(face: Face) async throws {
        let server = face.makeInjector()
        let made = Counter()
        await register(Transaction.self, scope: .scoped, in: server, made: made) { Transaction() }
        try await server.close()

        let request = server.openScope()
        expectClosed(
            await request.resolveError(Transaction.self), key: DependencyKey(Transaction.self),
            path: [DependencyKey(Transaction.self)])
        // Under a child of the closed server too.
        expectClosed(
            await server.child().openScope().resolveError(Transaction.self), key: DependencyKey(Transaction.self),
            path: [DependencyKey(Transaction.self)])
        #expect(made.value == 0)
        try await request.close()  // closed from the start: nothing to tear down
    }

    @Test(arguments: Face.allCases)
    func aClosedInjectorRunsNoFactoryForASingletonButStillMakesTransients(face: Face) async throws {
        let server = face.makeInjector()
        let made = Counter()
        await register(Pool.self, scope: .singleton, in: server, made: made) { Pool() }
        await register(Clock.self, scope: .transient, in: server, made: made) { Clock() }
        try await server.close()

        expectClosed(
            await server.resolveError(Pool.self), key: DependencyKey(Pool.self), path: [DependencyKey(Pool.self)])
        #expect(made.value == 0)
        _ = try await server.resolve(Clock.self)  // nothing to keep: transients still resolve
        #expect(made.value == 1)
    }

    @Test(arguments: Face.allCases)
    func aClosedChildWithItsOwnSingletonsRunsNoFactoryForAnInheritedOne(face: Face) async throws {
        let app = face.makeInjector()
        let made = Counter()
        await register(Pool.self, scope: .singleton, in: app, made: made) { Pool() }
        let test = app.child(singletons: .own)
        try await test.close()

        expectClosed(
            await test.resolveError(Pool.self), key: DependencyKey(Pool.self), path: [DependencyKey(Pool.self)])
        #expect(made.value == 0)
        _ = try await app.resolve(Pool.self)  // the app is open: its own singleton is made
        #expect(made.value == 1)
    }

    @Test(arguments: Face.allCases)
    func aDependencyOfAClosedScopesValueIsNotBuiltEither(face: Face) async throws {
        let app = face.makeInjector()
        let made = Counter()
        await register(Pool.self, scope: .scoped, in: app, made: made) { Pool() }
        await app.register(Transaction.self, scope: .scoped, needing: [.on(Pool.self)], tornDown: { _ in }) {
            _ = made.increment()
            return Transaction()
        }
        let request = app.openScope()
        try await request.close()

        // The transaction's creation is refused at its claim, so its factory never asks for the pool.
        expectClosed(
            await request.resolveError(Transaction.self), key: DependencyKey(Transaction.self),
            path: [DependencyKey(Transaction.self)])
        #expect(made.value == 0)
    }

    /// A teardown that resolves its own key in its closed scope gets `closed`, where it used to
    /// build the value again, tear it down, and recurse until `resolutionTooDeep`.
    @Test func aTeardownThatResolvesItsOwnKeyInItsClosedScopeGetsClosed() throws {
        let app = DependencyInjector()
        let scope = Collected<DependencyInjector>()
        let inTeardown = Collected<InjectionError>()
        let made = Counter()
        app.register(Transaction.self, scope: .scoped) { _ in
            _ = made.increment()
            return Transaction()
        }
        .teardown { _ in
            for request in scope.values {
                do throws(InjectionError) {
                    _ = try request.resolve(Transaction.self)
                } catch {
                    inTeardown.append(error)
                }
            }
        }
        let request = app.openScope()
        scope.append(request)
        _ = try request.resolve(Transaction.self)
        try request.close()

        #expect(made.value == 1)
        #expect(inTeardown.values.count == 1)
        expectClosed(
            inTeardown.values.first, key: DependencyKey(Transaction.self), path: [DependencyKey(Transaction.self)])
    }
}
