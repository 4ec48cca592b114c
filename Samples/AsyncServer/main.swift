// AsyncServer: a server on `AsyncDependencyInjector` that serves each request in a scope of
// its own. Start-up connects the database once and verifies the per-request graph with no
// request in hand; 200 requests run at once, each with its own transaction and logger, torn
// down when it ends; the lifetime traps end in typed errors; synchronous code and a
// main-actor model get the database; shutdown closes the connection pool.
// Run it with `swift run AsyncServer`; it exits with status 1 if a check fails.
import Foundation  // exit(_:)
import Injector

let server = AsyncDependencyInjector()
let ledger = ResourceLedger()
let routes = ["/users", "/orders", "/checkout"]
let requests = (1...200).map { id in
    RequestContext(id: id, route: routes[id % 3], userID: id % 4 + 1, sessionToken: id % 2 == 0 ? "s\(id)" : nil)
}

do {
    print("1. Start-up: installing the modules connects the database (an eager singleton):")
    await server.register(ledger)
    try await server.install(PersistenceModule(), RequestScopeModule(), RoutesModule())
    print("  verify() builds its own copy of every singleton, so the database's factory runs once more:")
    try await server.verify()
    print("  verify() passed with no request in hand: each request's scope provides its RequestContext")

    print("2. \(requests.count) requests at once, each in a scope of its own, closed when it ends:")
    let exchanges = await withTaskGroup(of: Exchange.self) { group in
        for request in requests {
            group.addTask { await serve(request, on: server, ledger: ledger) }
        }
        var exchanges: [Exchange] = []
        for await exchange in group { exchanges.append(exchange) }
        return exchanges.sorted { $0.request.id < $1.request.id }
    }
    for exchange in exchanges.prefix(3) { print("  \(line(for: exchange))") }
    let statuses = Dictionary(grouping: exchanges, by: \.response.status).mapValues(\.count)
    print(
        "  statuses: " + statuses.sorted { $0.key < $1.key }.map { "\($0.value) × \($0.key)" }.joined(separator: ", "))
    if let refused = exchanges.first(where: { $0.response.error != nil }), let error = refused.response.error {
        print("  \(line(for: refused)), from a typed InjectionError:")
        print("  | \(firstLine(of: error))")
    }
    let problems = exchanges.flatMap(\.problems)
    let pool = try await server.resolve(ConnectionPool.self)
    print(
        "  every handler and access log of a request shared its one logger and transaction, "
            + "and saw no other request's: \(problems.isEmpty ? "checked" : "\(problems.count) problems")")
    print(
        "  up to \(await ledger.peakOpenRequests) requests open at once, served by one pool "
            + "with up to \(await pool.peakInUse) connections in use")
    guard problems.isEmpty else { throw CheckFailed(problems) }

    print("3. The lifetime traps, each refused with a typed error:")
    try await showCaptiveDependency(under: server)
    try await showOutsideScope(on: server)

    print("4. The database, resolved here and registered in the synchronous injector, where @Inject reads it:")
    let database = try await server.resolve(Database.self)
    DependencyInjector.shared.register(database)
    let status = StatusPage()
    print("  \(status.summary); the same instance as the server's: \(status.database === database)")

    print("5. A @MainActor dashboard model from the synchronous injector, after all these awaits:")
    DependencyInjector.shared.registerDashboard()
    let early = await Task.detached { () -> String in
        do throws(InjectionError) {
            _ = try DependencyInjector.shared.resolve(DashboardModel.self)
            return "resolved"
        } catch {
            return String(firstLine(of: error))
        }
    }.value
    print("  from a background task, before it exists: \(early)")
    let dashboard = try DependencyInjector.shared.resolve(DashboardModel.self)  // top-level code is on the main actor
    print("  on the main actor: \(await dashboard.refresh())")
    let later = try await Task.detached { try DependencyInjector.shared.resolve(DashboardModel.self) }.value
    print("  from a background task, once created: the same model: \(later === dashboard)")

    print("6. Shutdown, after the last request: `server.close()` closes the pool:")
    guard await !ledger.events.contains(.closed(.pool)) else { throw CheckFailed("the pool closed before shutdown") }
    try await server.close()
    let audit = TeardownAudit(of: await ledger.events, served: exchanges.map(\.request.id))
    print(
        "  teardown order: each request's logger, then its transaction, when the request ended "
            + "(\(audit.requestsInReverseOrder) of \(audit.requests) requests); the pool last, at shutdown")
    print("  \(audit.summary)")
    guard audit.problems.isEmpty else { throw CheckFailed(audit.problems) }
    print("AsyncServer finished.")
} catch {
    print("AsyncServer failed: \(error)")
    exit(1)
}

/// A check of the sample's that did not hold.
struct CheckFailed: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) { self.description = description }

    /// The problems found, the first ten in full: one broken rule breaks it for every request.
    init(_ problems: [String]) {
        let more = problems.count > 10 ? ["… and \(problems.count - 10) more"] : []
        description = (["\(problems.count) problems:"] + problems.prefix(10) + more).joined(separator: "\n")
    }
}

/// The first line of a message: what went wrong, without the path and the fix.
func firstLine(of error: some CustomStringConvertible) -> Substring {
    error.description.split(separator: "\n").first ?? ""
}

func line(for exchange: Exchange) -> String {
    let request = exchange.request
    let session = request.sessionToken == nil ? " (no session)" : ""
    return "#\(request.id) GET \(request.route)/\(request.userID)\(session) -> "
        + "\(exchange.response.status) \(exchange.response.body)"
}
