import Injector

/// What arrived: the request each scope serves, registered in the scope when it opens.
struct RequestContext: Sendable {
    let id: Int
    let route: String
    let userID: Int
    let sessionToken: String?
}

/// The signed-in user, which a scope provides only when its request carries a session token.
struct Session: Sendable {
    let userID: Int
}

/// One request's log (scoped: one per request). Its lines go to the audit table in the
/// request's own transaction, so they commit, or not, with the request's work.
///
/// A `final class …: Sendable` may only hold `let`s, and a property wrapper such as `@Inject`
/// cannot be applied to a `let`: so it takes its dependencies through `init`, from its
/// factory, which can `await` the ones made asynchronously (the transaction).
final class RequestLogger: Sendable {
    let context: RequestContext
    let transaction: Transaction
    private let ledger: ResourceLedger

    private init(context: RequestContext, transaction: Transaction, ledger: ResourceLedger) {
        self.context = context
        self.transaction = transaction
        self.ledger = ledger
    }

    static func start(for context: RequestContext, in transaction: Transaction, ledger: ResourceLedger) async
        -> RequestLogger
    {
        await ledger.record(.opened(.logger(request: context.id)))
        return RequestLogger(context: context, transaction: transaction, ledger: ledger)
    }

    func log(_ line: String) async throws {
        try await transaction.write("INSERT INTO request_log VALUES (\(context.id), '\(line)')")
    }

    /// Writes the request's last line: its teardown, which must run while the transaction is
    /// still open. It does, since the logger was created after the transaction it writes to,
    /// and the scope closes its values in reverse creation order.
    func close() async throws {
        try await log("finished")
        await ledger.record(.closed(.logger(request: context.id)))
    }
}

/// What each request's scope holds. Registered once, at the root: opening a scope runs no
/// registration code but the request's own values.
struct RequestScopeModule: AsyncDependencyModule {
    func register(in injector: AsyncDependencyInjector) async {
        // Provided by each scope; declared here so that `verify()` and the lifetime checks
        // know them before any request arrives.
        await injector.declareScoped(RequestContext.self)
        await injector.declareScoped(Session.self)

        await injector.register(Transaction.self, scope: .scoped) { r in
            try await Transaction.begin(for: r.resolve(), pool: r.resolve(), ledger: r.resolve())
        }
        .teardown { transaction in try await transaction.commit() }
        await injector.register(RequestLogger.self, scope: .scoped) { r in
            try await RequestLogger.start(for: r.resolve(), in: r.resolve(), ledger: r.resolve())
        }
        .teardown { logger in try await logger.close() }
    }
}
