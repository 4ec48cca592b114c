import Injector

/// The server's database. Connecting takes a while, so the server connects once, at start-up.
actor Database {
    let url: String
    private let users = [1: "Ada", 2: "Grace", 3: "Linus"]
    private let orders = [1: ["keyboard", "coffee"], 2: ["compiler"], 3: []]
    private(set) var queryCount = 0
    private(set) var committedStatements = 0

    private init(url: String) { self.url = url }

    static func connect(to url: String) async throws -> Database {
        print("  connecting to \(url) ...")
        try await Task.sleep(nanoseconds: 50_000_000)  // the handshake
        print("  connected")
        return Database(url: url)
    }

    func user(id: Int) async -> String? { await query(users[id]) }
    func orders(ofUser id: Int) async -> [String] { await query(orders[id] ?? []) }
    func apply(_ statements: [String]) async { committedStatements += await query(statements.count) }

    /// A query's round trip: the actor is free meanwhile, so other requests' queries run.
    private func query<Row>(_ answer: Row) async -> Row {
        queryCount += 1
        try? await Task.sleep(nanoseconds: 1_000_000)
        return answer
    }
}

/// The connections every request borrows, one pool for the whole server (a singleton).
///
/// It connects on first use, not in its factory: `verify()` runs every factory to check the
/// graph, and checking a graph should not open connections.
actor ConnectionPool {
    enum Failure: Error {
        case closed
        case connectionsInUse(Int)
    }

    private let database: Database
    private let ledger: ResourceLedger
    private var isOpen = false
    private var isClosed = false
    private var inUse = 0
    private(set) var peakInUse = 0

    init(database: Database, ledger: ResourceLedger) {
        self.database = database
        self.ledger = ledger
    }

    /// Runs `work` on a borrowed connection.
    func run<Row: Sendable>(_ work: @Sendable (Database) async -> Row) async throws -> Row {
        guard !isClosed else { throw Failure.closed }
        if !isOpen {
            isOpen = true  // before the await: a request arriving meanwhile must not open it again
            await ledger.record(.opened(.pool))
        }
        inUse += 1
        peakInUse = max(peakInUse, inUse)
        let row = await work(database)
        inUse -= 1
        return row
    }

    /// Closes the pool at shutdown; a connection still out means a request outlived the server.
    /// A pool that never connected has nothing to close (`verify()`'s copy, which it tears down).
    func close() async throws {
        guard inUse == 0 else { throw Failure.connectionsInUse(inUse) }
        isClosed = true
        guard isOpen else { return }
        await ledger.record(.closed(.pool))
    }
}

/// One request's unit of work (scoped: one per request): reads go through the pool, writes
/// wait here until the request ends and are committed together.
actor Transaction {
    enum Failure: Error {
        case finished(request: Int)
    }

    nonisolated let context: RequestContext
    private let pool: ConnectionPool
    private let ledger: ResourceLedger
    private var pending: [String] = []
    private var isFinished = false

    private init(context: RequestContext, pool: ConnectionPool, ledger: ResourceLedger) {
        self.context = context
        self.pool = pool
        self.ledger = ledger
    }

    static func begin(for context: RequestContext, pool: ConnectionPool, ledger: ResourceLedger) async -> Transaction {
        await ledger.record(.opened(.transaction(request: context.id)))
        return Transaction(context: context, pool: pool, ledger: ledger)
    }

    func read<Row: Sendable>(_ query: @Sendable (Database) async -> Row) async throws -> Row {
        guard !isFinished else { throw Failure.finished(request: context.id) }
        return try await pool.run(query)
    }

    func write(_ statement: String) throws {
        guard !isFinished else { throw Failure.finished(request: context.id) }
        pending.append(statement)
    }

    /// Commits the request's writes: its teardown, when the request's scope closes.
    func commit() async throws {
        guard !isFinished else { throw Failure.finished(request: context.id) }
        isFinished = true
        let statements = pending
        try await pool.run { database in await database.apply(statements) }
        await ledger.record(.closed(.transaction(request: context.id)))
    }
}

/// Reads users, in the request's transaction. A new one per resolve (transient).
struct UserRepository: Sendable {
    let transaction: Transaction
    func name(ofUser id: Int) async throws -> String? { try await transaction.read { await $0.user(id: id) } }
}

/// Reads and places orders, in the request's transaction. A new one per resolve (transient).
struct OrderRepository: Sendable {
    let transaction: Transaction
    func orders(ofUser id: Int) async throws -> [String] {
        try await transaction.read { await $0.orders(ofUser: id) }
    }
    func pay(for items: [String], user: Int) async throws {
        try await transaction.write("INSERT INTO payments VALUES (\(user), \(items.count))")
    }
}

/// The database, the pool over it and the repositories. The database is an eager singleton:
/// installing the module connects it, so the first request does not wait for the handshake.
/// The pool is a singleton that the server's `close()` closes at shutdown.
struct PersistenceModule: AsyncDependencyModule {
    func register(in injector: AsyncDependencyInjector) async {
        await injector.register("postgres://localhost/shop", name: "databaseURL")
        await injector.register(Database.self, scope: .eagerSingleton) { r in
            try await Database.connect(to: r.resolve(String.self, name: "databaseURL"))
        }
        await injector.register(ConnectionPool.self, scope: .singleton) { r in
            try await ConnectionPool(database: r.resolve(), ledger: r.resolve())
        }
        .teardown { pool in try await pool.close() }
        await injector.register(UserRepository.self) { r in try await UserRepository(transaction: r.resolve()) }
        await injector.register(OrderRepository.self) { r in try await OrderRepository(transaction: r.resolve()) }
    }
}
