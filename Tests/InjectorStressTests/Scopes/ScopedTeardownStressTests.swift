import Injector
import TestSupport
import Testing

/// Many requests at once, each an opened scope on the actor face and on threads: one pool for
/// all, one transaction per request shared by its concurrent resolves, no request sees
/// another's, every transaction torn down exactly once when its request closes, then the pool.
@Suite struct ScopedTeardownStressTests {
    final class Pool: Sendable {}

    final class Transaction: Sendable {
        let request: Int
        let pool: Pool
        init(request: Int, pool: Pool) {
            self.request = request
            self.pool = pool
        }
    }

    struct RequestID: Sendable { let value: Int }

    static let requests = 200
    static let resolvesPerRequest = 4

    @Test func requestsOnTheActorFace() async throws {
        let closed = Collected<String>()
        let pools = Counter()
        let server = AsyncDependencyInjector()
        await server.register(Pool.self, scope: .singleton) { _ in
            _ = pools.increment()
            return Pool()
        }
        .teardown { _ in closed.append("pool") }
        await server.declareScoped(RequestID.self)
        await server.register(Transaction.self, scope: .scoped) { r in
            try await Transaction(request: r.resolve(RequestID.self).value, pool: r.resolve(Pool.self))
        }
        .teardown { transaction async in closed.append("transaction \(transaction.request)") }

        try await withThrowingTaskGroup(of: Void.self) { group in
            for request in 0..<Self.requests {
                group.addTask {
                    let scope = server.openScope()
                    await scope.register(RequestID(value: request))
                    let seen = try await withThrowingTaskGroup(of: Transaction.self) { resolves in
                        for _ in 0..<Self.resolvesPerRequest {
                            resolves.addTask { try await scope.child().resolve(Transaction.self) }
                        }
                        return try await resolves.reduce(into: []) { $0.append($1) }
                    }
                    #expect(seen.allSatisfy { $0 === seen[0] && $0.request == request })
                    try await scope.close()
                }
            }
            try await group.waitForAll()
        }
        try await server.close()
        check(closed.values, pools: pools.value)
    }

    @Test func requestsOnThreads() throws {
        let closed = Collected<String>()
        let pools = Counter()
        let app = DependencyInjector()
        app.register(Pool.self, scope: .singleton) { _ in
            _ = pools.increment()
            return Pool()
        }
        .teardown { _ in closed.append("pool") }
        app.declareScoped(RequestID.self)
        app.register(Transaction.self, scope: .scoped) { r in
            try Transaction(request: r.resolve(RequestID.self).value, pool: r.resolve(Pool.self))
        }
        .teardown { closed.append("transaction \($0.request)") }

        let scopes = (0..<Self.requests).map { request in
            let scope = app.openScope()
            scope.register(RequestID(value: request))
            return scope
        }
        let seen = Collected<(Int, Transaction)>()
        runOnThreads(8) { thread in
            for request in stride(from: thread, to: Self.requests, by: 8) {
                for _ in 0..<Self.resolvesPerRequest {
                    if let transaction = try? scopes[request].child().resolve(Transaction.self) {
                        seen.append((request, transaction))
                    }
                }
            }
        }
        runOnThreads(8) { thread in
            for request in stride(from: thread, to: Self.requests, by: 8) { try? scopes[request].close() }
        }
        try app.close()
        let byRequest = Dictionary(grouping: seen.values) { $0.0 }
        #expect(byRequest.count == Self.requests)
        for (request, values) in byRequest {
            #expect(values.count == Self.resolvesPerRequest)
            #expect(values.allSatisfy { $0.1 === values[0].1 && $0.1.request == request })
        }
        check(closed.values, pools: pools.value)
    }

    /// Every transaction closed once, before the pool, which was created and closed once.
    private func check(_ closed: [String], pools: Int) {
        #expect(pools == 1)
        #expect(closed.last == "pool")
        #expect(closed.filter { $0 == "pool" }.count == 1)
        let transactions = closed.filter { $0.hasPrefix("transaction") }
        #expect(transactions.count == Self.requests)
        #expect(Set(transactions).count == Self.requests)
    }
}
