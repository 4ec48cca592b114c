import Injector

/// A synchronous status page from before the server went async. It is not `Sendable` and
/// keeps `var`s, so it can use `@Inject`; `@Inject` cannot await, so it reads the database
/// that the server resolved and registered in `DependencyInjector.shared`.
final class StatusPage {
    @Inject var database: Database

    var summary: String { "status page: database at \(database.url)" }
}
