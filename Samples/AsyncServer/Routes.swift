import Injector

struct Request: Sendable {
    let number: Int
    let route: String
    let userID: Int
}

struct Response: Sendable, CustomStringConvertible {
    let request: Request
    let status: Int
    let body: String
    var error: InjectionError? = nil

    var description: String { "#\(request.number) GET \(request.route)/\(request.userID) -> \(status) \(body)" }
}

/// Answers one request; built per request, with that request and what its route needs.
protocol RouteHandler: Sendable {
    func respond() async -> Response
}

struct UserHandler: RouteHandler {
    let request: Request
    let users: UserRepository

    func respond() async -> Response {
        guard let name = await users.name(ofUser: request.userID) else {
            return Response(request: request, status: 404, body: "no such user")
        }
        return Response(request: request, status: 200, body: name)
    }
}

struct OrdersHandler: RouteHandler {
    let request: Request
    let users: UserRepository
    let orders: OrderRepository

    func respond() async -> Response {
        let name = await users.name(ofUser: request.userID) ?? "nobody"
        let items = await orders.orders(ofUser: request.userID)
        let body = items.isEmpty ? "\(name) has no orders" : "\(name) ordered \(items.joined(separator: ", "))"
        return Response(request: request, status: 200, body: body)
    }
}

struct CheckoutHandler: RouteHandler {
    let request: Request
    let orders: OrderRepository
    let payments: any PaymentGateway

    func respond() async -> Response {
        let items = await orders.orders(ofUser: request.userID)
        return await Response(request: request, status: 200, body: payments.charge(for: items))
    }
}

/// One handler per route, registered under the route's name.
struct RoutesModule: AsyncDependencyModule {
    func register(in injector: AsyncDependencyInjector) async {
        await injector.register((any RouteHandler).self, name: "/users") { r in
            try await UserHandler(request: r.resolve(), users: r.resolve())
        }
        await injector.register((any RouteHandler).self, name: "/orders") { r in
            try await OrdersHandler(request: r.resolve(), users: r.resolve(), orders: r.resolve())
        }
        await injector.register((any RouteHandler).self, name: "/checkout") { r in
            try await CheckoutHandler(request: r.resolve(), orders: r.resolve(), payments: r.resolve())
        }
    }
}

/// Serves `request` from a child of `services` that holds the request, so the handler and
/// what it needs are built for this request alone. A failed resolve becomes a 500.
func serve(_ request: Request, from services: AsyncDependencyInjector) async -> Response {
    let scope = services.child()
    await scope.register(request)
    do {
        return try await scope.resolve((any RouteHandler).self, name: request.route).respond()
    } catch {
        // Typed throws: `error` is an InjectionError, whose cases match without a cast.
        let reason =
            switch error {
            case .notRegistered(let key, _, _): "missing \(key)"
            default: "handler failed"
            }
        return Response(request: request, status: 500, body: reason, error: error)
    }
}
