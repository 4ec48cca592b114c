import Injector

/// The server's database. Connecting takes a while, so the server connects once, at start-up.
actor Database {
    let url: String
    private let users = [1: "Ada", 2: "Grace", 3: "Linus"]
    private let orders = [1: ["keyboard", "coffee"], 2: ["compiler"], 3: []]
    private(set) var queryCount = 0

    private init(url: String) { self.url = url }

    static func connect(to url: String) async throws -> Database {
        print("  connecting to \(url) ...")
        try await Task.sleep(nanoseconds: 50_000_000)  // the handshake
        print("  connected")
        return Database(url: url)
    }

    func user(id: Int) async -> String? { await query(users[id]) }
    func orders(ofUser id: Int) async -> [String] { await query(orders[id] ?? []) }

    /// A query's round trip: the actor is free meanwhile, so other requests' queries run.
    private func query<Row>(_ answer: Row) async -> Row {
        queryCount += 1
        try? await Task.sleep(nanoseconds: 2_000_000)
        return answer
    }
}

/// Reads users. A new one per resolve (transient), over the one database.
struct UserRepository: Sendable {
    let database: Database
    func name(ofUser id: Int) async -> String? { await database.user(id: id) }
}

/// Reads orders. A new one per resolve (transient), over the one database.
struct OrderRepository: Sendable {
    let database: Database
    func orders(ofUser id: Int) async -> [String] { await database.orders(ofUser: id) }
}

/// Takes payments. The server has not configured one yet; tests bring their own.
protocol PaymentGateway: Sendable {
    func charge(for items: [String]) async -> String
}

struct FakePayments: PaymentGateway {
    func charge(for items: [String]) async -> String { "fake receipt for \(items.count) items" }
}

/// The database and the repositories over it. The database is an eager singleton: installing
/// the module connects it, so the first request does not wait for the handshake.
struct PersistenceModule: AsyncDependencyModule {
    func register(in injector: AsyncDependencyInjector) async {
        await injector.register("postgres://localhost/shop", name: "databaseURL")
        await injector.register(Database.self, scope: .eagerSingleton) { r in
            try await Database.connect(to: r.resolve(String.self, name: "databaseURL"))
        }
        await injector.register(UserRepository.self) { r in try await UserRepository(database: r.resolve()) }
        await injector.register(OrderRepository.self) { r in try await OrderRepository(database: r.resolve()) }
    }
}

/// A synchronous status page from before the server went async. `@Inject` cannot await, so
/// it reads the database that `export(_:to:)` handed to `DependencyInjector.shared`.
final class StatusPage {
    @Inject var database: Database

    var summary: String { "status page: database at \(database.url)" }
}
