// What Scopes.md's Swift blocks assume (see .ci/snippets).
import Injector

var injector: DependencyInjector { .shared }

final class Request {}
final class Session {}
final class Router {}
final class Cart {}

class Database {
    static func open() throws -> Database { Database() }
    static func inMemory() throws -> Database { Database() }
}
final class SQLiteDatabase: Database {}

final class LoginRouter {}

final class LoginInteractor {
    let router: LoginRouter
    init(router: LoginRouter) { self.router = router }
}

final class LoginPresenter {
    let router: LoginRouter
    let interactor: LoginInteractor
    init(router: LoginRouter, interactor: LoginInteractor) {
        self.router = router
        self.interactor = interactor
    }
}

protocol API {}

struct UserProfile {
    let api: API
}

protocol Clock {}
struct SystemClock: Clock {}
struct FixedClock: Clock {}

struct Receipts {
    let clock: Clock
}

final class Audit {
    let clock: Clock
    init(clock: Clock) { self.clock = clock }
}

final class ConnectionPool {}

final class Transaction {
    init(pool: ConnectionPool) {}
}

let app = DependencyInjector()

// Flags reloaded by `reset(FeatureFlags.self)`.
final class FeatureFlags {
    static func load() throws -> FeatureFlags { FeatureFlags() }
}
