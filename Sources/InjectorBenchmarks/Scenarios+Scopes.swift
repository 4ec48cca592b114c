import Injector

// A request's objects: a handler with a repository (on a transaction) and a logger, all
// `.scoped`, each closed by its teardown when the request ends.
//
// `@unchecked Sendable` (the actor face needs `Sendable` values): `isClosed` is written once,
// by the object's teardown, after the request's last use of it.

final class Transaction: @unchecked Sendable {
    var isClosed = false
}

final class Repository: @unchecked Sendable {
    let transaction: Transaction
    var isClosed = false

    init(transaction: Transaction) {
        self.transaction = transaction
    }
}

final class RequestLogger: @unchecked Sendable {
    var isClosed = false
}

final class RequestHandler: @unchecked Sendable {
    let repository: Repository
    let logger: RequestLogger
    var isClosed = false

    init(repository: Repository, logger: RequestLogger) {
        self.repository = repository
        self.logger = logger
    }
}

/// The four teardowns, registered with the injectors and run by the hand-written request
/// alike: each marks its object closed, a write the optimiser must keep (the handler, which
/// reaches the other three, is consumed after the close).
enum RequestTeardown {
    static let transaction: @Sendable (Transaction) -> Void = { $0.isClosed = true }
    static let repository: @Sendable (Repository) -> Void = { $0.isClosed = true }
    static let logger: @Sendable (RequestLogger) -> Void = { $0.isClosed = true }
    static let handler: @Sendable (RequestHandler) -> Void = { $0.isClosed = true }
}

/// What an opened scope does for a request, written by hand: the four objects created and
/// wired in the order the injector creates them, and closed in reverse.
struct HandWrittenRequest {
    let transaction: Transaction
    let repository: Repository
    let logger: RequestLogger
    let handler: RequestHandler

    init() {
        transaction = Transaction()
        repository = Repository(transaction: transaction)
        logger = RequestLogger()
        handler = RequestHandler(repository: repository, logger: logger)
    }

    func close() {
        RequestTeardown.handler(handler)
        RequestTeardown.logger(logger)
        RequestTeardown.repository(repository)
        RequestTeardown.transaction(transaction)
    }
}

/// What an opened scope does for a request, written by hand as a container would write it:
/// each object made on first use and kept, safe to share between the request's threads (the
/// library's lock, never held while an object is made), its teardown recorded as it is kept,
/// and the teardowns run in reverse at the close. Simpler than the scope in one way: two
/// threads asking first at once may both make an object (the second is dropped), where the
/// scope makes it once.
final class LockedRequestStore: Sendable {
    private struct State {
        var transaction: Transaction?
        var repository: Repository?
        var logger: RequestLogger?
        var handler: RequestHandler?
        var teardowns: [() -> Void] = []
    }

    private let state = BaselineLocked(State())

    /// The kept value that `read` finds, else `make()`'s, kept by `keep` with its teardown.
    /// Closures rather than key paths, which cost more than the rest of an access.
    @inline(__always)
    private func value<Value>(
        _ read: (State) -> Value?,
        _ keep: (inout State, Value) -> Void,
        make: () -> Value,
        teardown: @escaping @Sendable (Value) -> Void
    ) -> Value {
        if let kept = state.withLock({ read($0) }) { return kept }
        let made = make()
        return state.withLock { state in
            if let kept = read(state) { return kept }
            keep(&state, made)
            state.teardowns.append { teardown(made) }
            return made
        }
    }

    var transaction: Transaction {
        value(
            { $0.transaction }, { $0.transaction = $1 }, make: { Transaction() },
            teardown: RequestTeardown.transaction)
    }

    var repository: Repository {
        value(
            { $0.repository }, { $0.repository = $1 }, make: { Repository(transaction: transaction) },
            teardown: RequestTeardown.repository)
    }

    var logger: RequestLogger {
        value({ $0.logger }, { $0.logger = $1 }, make: { RequestLogger() }, teardown: RequestTeardown.logger)
    }

    var handler: RequestHandler {
        value(
            { $0.handler }, { $0.handler = $1 }, make: { RequestHandler(repository: repository, logger: logger) },
            teardown: RequestTeardown.handler)
    }

    func close() {
        for teardown in state.withLock({ exchange(&$0.teardowns, with: []) }).reversed() { teardown() }
    }
}

/// One request's life in an opened scope: `openScope()`, a resolve of the handler, which
/// creates the four `.scoped` objects, and `close()`, which runs their four teardowns in
/// reverse creation order; releasing the scope included. Against the same work by hand.
/// The actor face's is measured from a task, against the hand-written request from a task.
func requestScope() -> Scenario {
    let injector = DependencyInjector()
    injector.register(Transaction.self, scope: .scoped) { _ in Transaction() }
        .teardown(RequestTeardown.transaction)
    injector.register(Repository.self, scope: .scoped) { r in try Repository(transaction: r.resolve()) }
        .teardown(RequestTeardown.repository)
    injector.register(RequestLogger.self, scope: .scoped) { _ in RequestLogger() }
        .teardown(RequestTeardown.logger)
    injector.register(RequestHandler.self, scope: .scoped) { r in
        try RequestHandler(repository: r.resolve(), logger: r.resolve())
    }
    .teardown(RequestTeardown.handler)
    let actor = AsyncDependencyInjector()
    runAsync {
        await actor.register(Transaction.self, scope: .scoped) { _ in Transaction() }
            .teardown(RequestTeardown.transaction)
        await actor.register(Repository.self, scope: .scoped) { r in try await Repository(transaction: r.resolve()) }
            .teardown(RequestTeardown.repository)
        await actor.register(RequestLogger.self, scope: .scoped) { _ in RequestLogger() }
            .teardown(RequestTeardown.logger)
        await actor.register(RequestHandler.self, scope: .scoped) { r in
            try await RequestHandler(repository: r.resolve(), logger: r.resolve())
        }
        .teardown(RequestTeardown.handler)
    }
    let byHand = "by hand: a per-request struct"
    let byHandLocked = "by hand: a locked, lazy per-request store"
    let injectorCase = "injector: openScope, resolve, close"
    let byHandFromTask = "by hand, from a task"
    let actorCase = "AsyncDependencyInjector: openScope, await resolve, await close"
    // Requests per task hop, at least: the hop is spread over them (see `runAsync`).
    let repeats = 100

    return Scenario(
        name: "request scope, 4 scoped objects",
        cases: [
            .measured(byHand) { n in
                for _ in 0..<n {
                    let request = HandWrittenRequest()
                    request.close()
                    blackHole(request.handler)
                }
            },
            .measured(byHandLocked, baseline: byHand) { n in
                for _ in 0..<n {
                    let request = LockedRequestStore()
                    let handler = request.handler
                    request.close()
                    blackHole(handler)
                }
            },
            .measured(injectorCase, baseline: byHand) { n in
                for _ in 0..<n {
                    let request = injector.openScope()
                    let handler = try? request.resolve(RequestHandler.self)
                    try? request.close()
                    blackHole(handler)
                }
            },
            // The same row again, against the store a container's author would write by hand
            // (what .NET's scope is): the target issue 41 sets.
            .derived(
                "\(injectorCase), against the locked store", baseline: byHandLocked,
                target: Target(reference: byHandLocked, limit: 1.5)
            ) { $0[injectorCase, default: 0] },
            .measured(byHandFromTask, operations: repeats, clock: .wall) { n in
                runAsync {
                    for _ in 0..<(n * repeats) {
                        let request = HandWrittenRequest()
                        request.close()
                        blackHole(request.handler)
                    }
                }
            },
            .measured(actorCase, baseline: byHandFromTask, operations: repeats, clock: .wall) { n in
                runAsync {
                    for _ in 0..<(n * repeats) {
                        let request = actor.openScope()
                        let handler = try? await request.resolve(RequestHandler.self)
                        try? await request.close()
                        blackHole(handler)
                    }
                }
            },
            // Against the locked store too: the target issue 42 sets.
            .derived(
                "\(actorCase), against the locked store", baseline: byHandLocked,
                target: Target(reference: byHandLocked, limit: 2.0)
            ) { $0[actorCase, default: 0] },
        ]
    )
}

/// A request handler asking for an app singleton (its logger) through the request's open
/// scope, against the same resolve on the app injector itself: what walking through the scope
/// adds. The scope has a value of its own (the request's context), as a request's has.
func appSingletonThroughAScope() -> Scenario {
    let app = DependencyInjector()
    app.register(Logger.self, scope: .singleton) { _ in Logger() }
    _ = try? app.resolve(Logger.self)  // created now, so every timed resolve finds it ready
    let request = app.openScope()
    request.register(Transaction())
    let onTheApp = "injector, on the app injector"

    return Scenario(
        name: "app singleton through a scope",
        cases: [
            .measured(onTheApp) { n in
                for _ in 0..<n { blackHole(try? app.resolve(Logger.self)) }
            },
            .measured(
                "injector, through an open scope", baseline: onTheApp, target: Target(reference: onTheApp, limit: 1.3)
            ) { n in
                for _ in 0..<n { blackHole(try? request.resolve(Logger.self)) }
            },
        ]
    )
}
