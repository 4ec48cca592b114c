import Injector
import Testing

// The README's "Async dependencies" example, compiled and run: an async database singleton,
// a repository transient, concurrent requests, and the hand-over to the synchronous world.

private struct User: Sendable, Equatable {
    let id: Int
    let name: String
}

private actor Database {
    let url: String
    private(set) var queries = 0

    private init(url: String) { self.url = url }

    static func connect(to url: String) async throws -> Database {
        try await Task.sleep(nanoseconds: 20_000_000)  // the handshake
        return Database(url: url)
    }

    func fetchUser(id: Int) -> User {
        queries += 1
        return User(id: id, name: "user \(id)")
    }
}

private struct UserRepository: Sendable {
    let database: Database
    func user(id: Int) async throws -> User { await database.fetchUser(id: id) }
}

@Suite struct AsyncServerExampleTests {
    @Test func concurrentRequestsShareOneConnectionAndGetTheirOwnRepository() async throws {
        let connections = Counter()
        let services = AsyncDependencyInjector()
        await services.register("postgres://localhost/app", name: "databaseURL")
        await services.register(Database.self, scope: .singleton) { r in
            connections.increment()
            return try await Database.connect(to: r.resolve(String.self, name: "databaseURL"))
        }
        await services.register(UserRepository.self) { r in
            try await UserRepository(database: r.resolve())
        }

        let users = try await withThrowingTaskGroup(of: User.self) { group in
            for id in 1...50 {
                group.addTask {
                    let repository = try await services.resolve(UserRepository.self)
                    return try await repository.user(id: id)
                }
            }
            return try await group.reduce(into: [User]()) { $0.append($1) }
        }

        #expect(Set(users.map(\.id)) == Set(1...50))
        #expect(connections.value == 1)
        let database = try await services.resolve(Database.self)
        #expect(await database.queries == 50)
        #expect(database.url == "postgres://localhost/app")

        let sync = DependencyInjector()
        sync.register(try await services.resolve(Database.self))
        #expect(try sync.resolve(Database.self) === database)
    }
}
