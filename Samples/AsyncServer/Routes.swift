import Injector

struct Response: Sendable {
    let status: Int
    let body: String
    var error: InjectionError? = nil
}

/// Answers one request; built per resolve, inside the request's scope, from what its route
/// needs. Handlers are `final class …: Sendable`, and so take their dependencies through
/// `init` (see `RequestLogger`), or hold `Injected` values (see `UserHandler`).
protocol RouteHandler: Sendable {
    var context: RequestContext { get }
    var logger: RequestLogger { get }
    var transaction: Transaction { get }
    func respond() async throws -> Response
}

final class UserHandler: RouteHandler {
    /// The other way for a `Sendable` class: an `Injected` `let`, resolved when the handler is
    /// created, as `@Inject` would be. The factory runs in the request's scope, whose registry
    /// is then `DependencyInjector.current`, so it finds the request's context there (a ready
    /// value: what a factory must `await` still comes through `init`).
    private let request = Injected<RequestContext>()
    let logger: RequestLogger
    private let users: UserRepository
    var context: RequestContext { request() }
    var transaction: Transaction { users.transaction }

    init(logger: RequestLogger, users: UserRepository) {
        self.logger = logger
        self.users = users
    }

    func respond() async throws -> Response {
        guard let name = try await users.name(ofUser: context.userID) else {
            return Response(status: 404, body: "no such user")
        }
        return Response(status: 200, body: name)
    }
}

final class OrdersHandler: RouteHandler {
    let context: RequestContext
    let logger: RequestLogger
    private let orders: OrderRepository
    var transaction: Transaction { orders.transaction }

    init(context: RequestContext, logger: RequestLogger, orders: OrderRepository) {
        self.context = context
        self.logger = logger
        self.orders = orders
    }

    func respond() async throws -> Response {
        let items = try await orders.orders(ofUser: context.userID)
        return Response(status: 200, body: items.isEmpty ? "no orders" : items.joined(separator: ", "))
    }
}

/// Pays for the signed-in user's orders: it needs the request's `Session`, which only
/// requests with a session token provide.
final class CheckoutHandler: RouteHandler {
    let context: RequestContext
    let logger: RequestLogger
    private let session: Session
    private let orders: OrderRepository
    var transaction: Transaction { orders.transaction }

    init(context: RequestContext, logger: RequestLogger, session: Session, orders: OrderRepository) {
        self.context = context
        self.logger = logger
        self.session = session
        self.orders = orders
    }

    func respond() async throws -> Response {
        let items = try await orders.orders(ofUser: session.userID)
        try await orders.pay(for: items, user: session.userID)
        try await logger.log("paid for \(items.count) items")
        return Response(status: 200, body: "paid for \(items.count) items")
    }
}

/// One handler per route, registered under the route's name.
struct RoutesModule: AsyncDependencyModule {
    func register(in injector: AsyncDependencyInjector) async {
        await injector.register((any RouteHandler).self, name: "/users") { r in
            try await UserHandler(logger: r.resolve(), users: r.resolve())
        }
        await injector.register((any RouteHandler).self, name: "/orders") { r in
            try await OrdersHandler(context: r.resolve(), logger: r.resolve(), orders: r.resolve())
        }
        await injector.register((any RouteHandler).self, name: "/checkout") { r in
            try await CheckoutHandler(
                context: r.resolve(), logger: r.resolve(), session: r.resolve(), orders: r.resolve())
        }
    }
}
