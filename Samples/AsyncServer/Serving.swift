import Injector

/// A request, its response, and what went wrong with its scope, if anything did.
struct Exchange: Sendable {
    let request: RequestContext
    let response: Response
    let problems: [String]
}

/// Serves `context` in a scope of its own, opened under `server` by `withScope`: the request's
/// values are created in it, shared by every resolve in it, and torn down when it closes, on
/// every path. A resolve that fails becomes an error response.
func serve(_ context: RequestContext, on server: AsyncDependencyInjector, ledger: ResourceLedger) async -> Exchange {
    var problems: [String] = []
    func check(_ condition: Bool, _ problem: @autoclosure () -> String) {
        if !condition { problems.append("request #\(context.id): \(problem())") }
    }

    var response = Response(status: 500, body: "not served", error: nil)
    do {
        response = try await server.withScope { request in
            await request.register(context)
            if context.sessionToken != nil { await request.register(Session(userID: context.userID)) }
            let response = await respond(to: context, in: request, check: check)
            check(await ledger.closed(byRequest: context.id).isEmpty, "values were torn down before the request ended")
            return response
        }  // closed here: the logger, then the transaction
    } catch {
        problems.append("request #\(context.id): \(error)")
    }
    let closed = await ledger.closed(byRequest: context.id)
    check(
        closed == [.logger(request: context.id), .transaction(request: context.id)],
        "closing its scope tore down \(closed), not its logger then its transaction")
    return Exchange(request: context, response: response, problems: problems)
}

/// The response to `context`, resolved in `request`, its scope; what looks wrong goes to `check`.
private func respond(
    to context: RequestContext,
    in request: AsyncDependencyInjector,
    check: (Bool, @autoclosure () -> String) -> Void
) async -> Response {
    // The access log and the route resolve in two child tasks, as middleware and a handler do:
    // both must get the request's one logger and one transaction.
    async let accessLog = request.result(RequestLogger.self)
    async let route = request.result((any RouteHandler).self, name: context.route)
    switch await accessLog {
    case .success(let logger):
        if case .success(let handler) = await route {
            check(handler.logger === logger, "the handler got another logger than the access log")
            check(handler.transaction === logger.transaction, "the handler got another transaction than the logger")
            check(handler.context.id == context.id, "its handler serves request #\(handler.context.id)")
        }
        check(logger.context.id == context.id, "its logger is request #\(logger.context.id)'s")
        check(logger.transaction.context.id == context.id, "its transaction is #\(logger.transaction.context.id)'s")
        return await respond(to: context, with: await route, loggingTo: logger)
    case .failure(let error):
        check(false, error.description)
        return Response(status: 500, body: "no logger", error: error)
    }
}

private func respond(
    to context: RequestContext,
    with route: Result<any RouteHandler, InjectionError>,
    loggingTo logger: RequestLogger
) async -> Response {
    do {
        try await logger.log("GET \(context.route)/\(context.userID)")
        // Typed throws: the error is an InjectionError, whose cases match without a cast.
        switch route {
        case .success(let handler):
            return try await handler.respond()
        case .failure(let error):
            if case .notProvidedByScope(DependencyKey(Session.self), _, _) = error {
                return Response(status: 401, body: "sign in first", error: error)
            }
            return Response(status: 500, body: "no handler", error: error)
        }
    } catch {
        return Response(status: 500, body: "\(error)")
    }
}

extension AsyncDependencyInjector {
    /// `resolve` as a value, for `async let`, which would lose the error's type.
    func result<T: Sendable>(_ type: T.Type, name: String? = nil) async -> Result<T, InjectionError> {
        do {
            return .success(try await resolve(type, name: name))
        } catch {
            return .failure(error)
        }
    }
}
