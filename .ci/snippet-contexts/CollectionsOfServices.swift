// What CollectionsOfServices.md's Swift blocks assume (see .ci/snippets).
import Injector

var app: DependencyInjector { .shared }
var server: AsyncDependencyInjector { .shared }

struct Request {}

protocol Middleware: Sendable {
    func handle(_ request: Request) throws -> Request
}

struct RequestLogging: Middleware {
    func handle(_ request: Request) throws -> Request { request }
}

struct SigningKeys: Sendable {}

struct Authentication: Middleware {
    init(keys: SigningKeys) {}
    func handle(_ request: Request) throws -> Request { request }
}

protocol AnalyticsSink: Sendable {}
struct RecordingSink: AnalyticsSink {}

protocol Route: Sendable {}
struct UsersRoute: Route {}
final class Database: Sendable {}
struct OrdersRoute: Route {
    init(db: Database) {}
}
struct ConsoleSink: AnalyticsSink {}
