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
    let byHandFromTask = "by hand, from a task"
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
            .measured(
                "injector: openScope, resolve, close", baseline: byHand,
                target: Target(reference: byHand, limit: 2.0)
            ) { n in
                for _ in 0..<n {
                    let request = injector.openScope()
                    let handler = try? request.resolve(RequestHandler.self)
                    try? request.close()
                    blackHole(handler)
                }
            },
            .measured(byHandFromTask, operations: repeats, clock: .wall) { n in
                runAsync {
                    for _ in 0..<(n * repeats) {
                        let request = HandWrittenRequest()
                        request.close()
                        blackHole(request.handler)
                    }
                }
            },
            .measured(
                "AsyncDependencyInjector: openScope, await resolve, await close", baseline: byHandFromTask,
                operations: repeats, clock: .wall
            ) { n in
                runAsync {
                    for _ in 0..<(n * repeats) {
                        let request = actor.openScope()
                        let handler = try? await request.resolve(RequestHandler.self)
                        try? await request.close()
                        blackHole(handler)
                    }
                }
            },
        ]
    )
}
