// What ServersAndRequestScopes.md's Swift blocks assume (see .ci/snippets).
import Injector

let server = AsyncDependencyInjector()

/// A connection pool: opened once, drained at shutdown.
final class ConnectionPool: Sendable {
    static func open() async throws -> ConnectionPool { ConnectionPool() }
    func drain() async {}
}

/// The request a scope serves.
struct RequestContext: Sendable {
    let id: Int
    let path: String
}

/// One per request: begun on first use, committed when the request ends.
final class Transaction: Sendable {
    init(pool: ConnectionPool) {}
    static func begin(in pool: ConnectionPool) async throws -> Transaction { Transaction(pool: pool) }
    func commit() async throws {}
}

final class RequestLogger: Sendable {
    init(request: RequestContext) {}
    func info(_ message: String) {}
    func flush() {}
}

protocol Clock: Sendable {
    func now() -> Int
}

struct SystemClock: Clock {
    func now() -> Int { 0 }
}

final class AuditLog: Sendable {
    init(transaction: Transaction) {}
}

struct Order: Sendable {
    let id: Int
}

final class OrderRepository: Sendable {
    init(transaction: Transaction) {}
    func save(_ order: Order) throws {}
}

final class OrderHandler: Sendable {
    init(orders: OrderRepository, log: RequestLogger) {}
    func handle(_ order: Order) async throws {}
}

func serve(_ request: RequestContext) async throws {}

final class InvoiceService: Sendable {
    let clock = Injected<any Clock>()
}
