extension DependencyInjector {
    /// Opens a scope under this injector, runs `body` with it (as ``current`` too, so that the
    /// wrappers of what the body makes resolve from it), and closes it on every path: one
    /// request, one job.
    ///
    /// ```swift
    /// app.register(Transaction.self, scope: .scoped) { r in try Transaction(db: r.resolve()) }
    ///     .teardown { try $0.commit() }
    ///
    /// let response = try app.withScope { request in
    ///     request.register(RequestContext(id: 42))
    ///     return try request.resolve(OrderHandler.self).handle()
    /// }  // the transaction is committed here, whether `handle()` threw or not
    /// ```
    ///
    /// - Throws: What `body` throws (its teardowns still run, and a teardown that fails then is
    ///   recorded on the running test, or printed outside one); otherwise the ``TeardownError``
    ///   of the close, if a teardown failed.
    public func withScope<Result>(
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        _ body: (DependencyInjector) throws -> Result
    ) throws -> Result {
        let scope = openScope(fileID: fileID, filePath: filePath, line: line)
        let result: Result
        do {
            result = try Self.$current.withValue(scope) { try body(scope) }
        } catch {
            scope.closeReportingFailures()
            throw error
        }
        try scope.close()
        return result
    }
}

extension AsyncDependencyInjector {
    /// Opens a scope under this injector, runs `body` with it (as ``current`` too, on both
    /// faces, so that the wrappers of what the body makes resolve from it), and closes
    /// it on every path, awaiting its teardowns: what a `defer` cannot do, since it cannot
    /// `await`. The rules are ``DependencyInjector/withScope(fileID:filePath:line:_:)``'s:
    /// `try await server.withScope { request in try await request.resolve(OrderHandler.self).handle() }`.
    public func withScope<Result>(
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        isolation: isolated (any Actor)? = #isolation,
        _ body: (AsyncDependencyInjector) async throws -> Result
    ) async throws -> Result {
        let scope = openScope(fileID: fileID, filePath: filePath, line: line)
        let result: Result
        do {
            // Current on both faces, as for a factory's run: the wrappers of what the body makes
            // resolve from the scope, then from the injector bound outside (see `ActorFaceCurrent`).
            AsyncWrapperCapture.scopeBodies.increment()  // its wrappers look for the injector bound outside
            defer { AsyncWrapperCapture.scopeBodies.decrement() }
            result = try await Self.running(scope) { try await body(scope) }
        } catch {
            await scope.closeReportingFailuresUncancelled()
            throw error
        }
        try await scope.closeUncancelled()
        return result
    }
}
