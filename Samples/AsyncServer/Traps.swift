import Injector

/// A singleton that would keep the first request's transaction: every later request would
/// write into a transaction committed long ago. The injector refuses to build it.
final class AuditTrail: Sendable {
    let transaction: Transaction

    init(transaction: Transaction) {
        self.transaction = transaction
    }
}

/// The captive dependency, in a child of the server, so that the server itself stays sound:
/// a request that asks for the trail gets a typed error, and so does `verify()`, with no
/// request in hand.
func showCaptiveDependency(under server: AsyncDependencyInjector) async throws {
    let flawed = server.child()
    await flawed.register(AuditTrail.self, scope: .singleton) { r in
        try await AuditTrail(transaction: r.resolve())
    }

    let request = flawed.openScope()
    await request.register(RequestContext(id: 0, route: "/audit", userID: 1, sessionToken: nil))
    let resolved = await request.result(AuditTrail.self)
    try await request.close()
    guard case .failure(let error) = resolved, case .captiveDependency(let key, _, let holder, _) = error,
        key == DependencyKey(Transaction.self), holder == DependencyKey(AuditTrail.self)
    else { throw CheckFailed("resolving AuditTrail in a request gave \(resolved), not a captive dependency") }
    print("  resolve in a request: \(firstLine(of: error))")

    print("  verify() on that child (with copies of the singletons: one more handshake):")
    var problems: [InjectionError] = []
    do {
        try await flawed.verify()
    } catch {
        problems = error.failures
    }
    guard problems.count == 1, case .captiveDependency(key, _, holder, _) = problems[0] else {
        throw CheckFailed("verify() reported \(problems.count) problems, not the one captive dependency")
    }
    print("  verify(), with no request in hand: \(firstLine(of: problems[0]))")
}

/// A scoped value asked for where no request is: there is no scope to keep it in.
func showOutsideScope(on server: AsyncDependencyInjector) async throws {
    let resolved = await server.result(Transaction.self)
    guard case .failure(let error) = resolved, case .outsideScope(DependencyKey(Transaction.self), _) = error else {
        throw CheckFailed("resolving a Transaction outside any request gave \(resolved), not outsideScope")
    }
    print("  resolve outside a request: \(firstLine(of: error))")
}
