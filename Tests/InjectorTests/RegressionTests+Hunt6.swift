import Injector
import Testing

/// Defects around the close of kept values and the release of plain children, found by hunt 6.
@Suite struct Hunt6RegressionTests {
    /// A user's session: an app value that owns a plain child of the app, in which the session
    /// registers what is its own.
    final class Session: Sendable {
        let sync: DependencyInjector?
        let async: AsyncDependencyInjector?
        init(_ sync: DependencyInjector) { (self.sync, self.async) = (sync, nil) }
        init(_ async: AsyncDependencyInjector) { (self.sync, self.async) = (nil, async) }
    }

    /// DESIGN.md principle 11 ("the container closes what it created in reverse creation
    /// order"); ServersAndRequestScopes.md, Teardown: "a `child()` released without `close()` |
    /// its own singletons", "Reverse creation order". An app singleton with no teardown holds a
    /// plain child, whose own singleton (made second) has one; a later app singleton (made
    /// third) has one too. The app's close releases the teardown-less singleton before it runs
    /// any teardown, so the child's singleton is torn down first. (Kept as a request's scoped
    /// values, the same three close in reverse creation order: each is released in its turn.)
    @Test(arguments: Face.allCases)
    func aChildHeldByASingletonIsTornDownInReverseCreationOrderAtTheAppsClose(face: Face) async throws {
        let closed = Collected<String>()
        switch face.makeInjector().base {
        case .sync(let app):
            app.register(Session.self, scope: .singleton) { _ in Session(app.child()) }
            app.register(Service.self, name: "late", scope: .singleton) { _ in Service(label: "late") }
                .teardown { closed.append($0.label) }
            do {
                let session = try #require(try app.resolve(Session.self).sync)
                session.register(Service.self, scope: .singleton) { _ in Service(label: "session's") }
                    .teardown { closed.append($0.label) }
                _ = try session.resolve(Service.self)
            }
            _ = try app.resolve(Service.self, name: "late")
            try app.close()
        case .async(let app):
            await app.register(Session.self, scope: .singleton) { _ in Session(app.child()) }
            await app.register(Service.self, name: "late", scope: .singleton) { _ in Service(label: "late") }
                .teardown { (service: Service) async in closed.append(service.label) }
            do {
                let session = try #require(try await app.resolve(Session.self).async)
                await session.register(Service.self, scope: .singleton) { _ in Service(label: "session's") }
                    .teardown { closed.append($0.label) }
                _ = try await session.resolve(Service.self)
            }
            _ = try await app.resolve(Service.self, name: "late")
            try await app.close()
        }
        #expect(closed.values == ["late", "session's"])
    }

    /// ServersAndRequestScopes.md, Teardown: a teardown's failure "is recorded on the running
    /// test and thrown by the next `close()`"; `AsyncDependencyInjector.close()`: "It first
    /// awaits the teardowns still running for values let go earlier"; DESIGN.md principle 10.
    /// A plain child released without `close()` hands its own teardowns to its parent, whose
    /// close awaits and throws them (that holds for a child of the app). A grandchild's go to
    /// the child: its failures noted there and its asynchronous teardowns in the child's task,
    /// which the child's release drops. The app's close neither throws the failure nor (actor
    /// face) awaits the teardown, which has not even run when it returns.
    @Test(arguments: Face.allCases)
    func aGrandchildsTeardownIsAwaitedAndThrownByTheAppsClose(face: Face) async throws {
        let ran = Collected<String>()
        var error: TeardownError?
        switch face.makeInjector().base {
        case .sync(let app):
            withKnownIssue(isIntermittent: true) {  // the failure, recorded on the test as well
                let child = app.child()
                let grandchild = child.child()
                grandchild.register(Service.self, scope: .singleton) { _ in Service(label: "grandchild's") }
                    .teardown { _ in
                        ran.append("grandchild's")
                        throw SampleError(code: 6)
                    }
                _ = try grandchild.resolve(Service.self)
            }
            do throws(TeardownError) { try app.close() } catch let failure { error = failure }
        case .async(let app):
            await withKnownIssue(isIntermittent: true) {
                let child = app.child()
                let grandchild = child.child()
                await grandchild.register(Service.self, scope: .singleton) { _ in Service(label: "grandchild's") }
                    .teardown { (_: Service) async throws in
                        ran.append("grandchild's")
                        throw SampleError(code: 6)
                    }
                _ = try await grandchild.resolve(Service.self)
            }
            do throws(TeardownError) { try await app.close() } catch let failure { error = failure }
        }
        #expect(ran.values == ["grandchild's"])
        #expect(error?.failures.count == 1)
    }

    /// `DependencyInjector.close()`: "While teardowns of values let go earlier still run in a
    /// task, this close's teardowns all run after them, in order, in a task of their own: a
    /// value let go before its pool is closed before it" (a hunt found the docs silent on it;
    /// the behaviour is the design's). The sync close returns before the pool's teardown runs;
    /// the actor face's `close()` awaits both and throws the pool's failure.
    @Test
    func aSyncCloseRunsItsSynchronousTeardownsWhileAnEarlierOneIsInFlight() async throws {
        let server = AsyncDependencyInjector()
        let gate = AsyncGate()
        let closed = Collected<String>()
        await server.register(Service.self, name: "let go", scope: .singleton) { _ in Service(label: "let go") }
            .teardown { (service: Service) async in
                await gate.wait()
                closed.append(service.label)
            }
        await server.register(Service.self, name: "pool", scope: .singleton) { _ in Service(label: "pool") }
            .teardown { _ in
                closed.append("pool")
                throw SampleError(code: 6)
            }
        _ = try await server.resolve(Service.self, name: "let go")
        _ = try await server.resolve(Service.self, name: "pool")
        await server.unregister(Service.self, name: "let go")  // its teardown waits at the gate, in a task

        var error: TeardownError?
        var ranByClose: [String] = []
        var awaitedError: TeardownError?
        await withKnownIssue {  // the pool's failure, recorded on the test as it happens
            do throws(TeardownError) { try server.synchronous.close() } catch let failure { error = failure }
            ranByClose = closed.values
            gate.open()
            do throws(TeardownError) { try await server.close() } catch let failure { awaitedError = failure }
        }

        #expect(ranByClose.isEmpty && error == nil, "the sync close ran its teardowns before the earlier one")
        #expect(closed.values == ["let go", "pool"])
        #expect(awaitedError?.failures.map { $0.key } == [DependencyKey(Service.self, name: "pool")])
    }

    /// `AsyncDependencyInjector.close()`: "Called in a teardown, or a task one starts, it does
    /// not wait for a running close: that close may be waiting, one way or another, for the
    /// teardown (two closes that close each other in their teardowns)." A request's later value
    /// has a synchronous teardown that starts a task closing the request; the earlier value's
    /// asynchronous teardown awaits that task. Since the actor face's close runs a scope's
    /// synchronous teardowns unbound (`TeardownRun.mark` is bound only around the
    /// awaited ones), the task waits for the running close, which waits for it: deadlock. (The
    /// same two values as the app's singletons, whose teardowns all run bound, close at once.)
    @Test
    func aTaskASynchronousTeardownStartsClosesWithoutWaitingForTheRunningClose() async throws {
        let app = AsyncDependencyInjector()
        let scopes = Collected<AsyncDependencyInjector>()
        let started = Collected<Task<Void, Never>>()
        await app.register(Service.self, name: "first", scope: .scoped) { _ in Service(label: "first") }
            .teardown { (_: Service) async in
                for task in started.values { await task.value }
            }
        await app.register(Service.self, name: "second", scope: .scoped) { _ in Service(label: "second") }
            .teardown { _ in
                let scope = scopes.values.first
                started.append(Task { try? await scope?.close() })
            }
        let request = app.openScope()
        scopes.append(request)
        _ = try await request.resolve(Service.self, name: "first")
        _ = try await request.resolve(Service.self, name: "second")

        let closed = await finishesAsync(withinSeconds: 300) { try? await request.close() }

        #expect(closed)
    }
}
