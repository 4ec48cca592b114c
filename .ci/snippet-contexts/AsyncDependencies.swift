// What AsyncDependencies.md's Swift blocks assume (see .ci/snippets).
import Foundation
import Injector

var services: AsyncDependencyInjector { .shared }

final class Database: Sendable {
    static func connect(to url: String) async throws -> Database { Database() }
}

struct OrderRepository: Sendable {
    let database: Database
}

protocol API: Sendable {}

struct UserSession: Sendable {
    let id: UUID
    let api: any API
}

var userID: UUID { UUID() }

protocol NetworkProviding: Sendable {}

final class URLSessionBox: Sendable {}

struct LiveNetwork: NetworkProviding {
    let session: URLSessionBox
}

private enum NetworkProviderKey: InjectionKey {
    static var defaultValue: any NetworkProviding { LiveNetwork(session: URLSessionBox()) }
}

extension InjectedValues {
    var networkProvider: any NetworkProviding {
        get { self[NetworkProviderKey.self] }
        set { self[NetworkProviderKey.self] = newValue }
    }
}

struct Session: Sendable {}

final class SettingsStore: Sendable {}

@MainActor final class SettingsModel {
    init(store: SettingsStore) {}
}

struct RoutesModule: AsyncDependencyModule {
    func register(in injector: AsyncDependencyInjector) async {}
}

protocol Mailer: Sendable {}
struct MockMailer: Mailer {}

struct SignUp {
    func run() async throws {}
}

// The module of the sixth block, which the seventh installs.
struct PersistenceModule: AsyncDependencyModule {
    func register(in injector: AsyncDependencyInjector) async {
        await injector.register(Database.self, scope: .eagerSingleton) { _ in
            try await Database.connect(to: "postgres://localhost/shop")
        }
    }
}
