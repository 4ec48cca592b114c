import Injector

/// The admin dashboard's model: main-actor state, as UI models have. Its factory runs on the
/// main actor, and main-actor code resolves it without `await`.
@MainActor
final class DashboardModel {
    private let database: Database
    private(set) var refreshes = 0

    init(database: Database) {
        self.database = database
    }

    func refresh() async -> String {
        refreshes += 1
        return "refresh \(refreshes): \(await database.queryCount) queries, "
            + "\(await database.committedStatements) statements committed so far"
    }
}

extension DependencyInjector {
    /// Registers the dashboard model, built on the main actor from the exported database.
    func registerDashboard() {
        mainActor.register(DashboardModel.self, scope: .singleton) { r in
            try DashboardModel(database: r.resolve())
        }
    }
}
