// AsyncServer: an async app on `AsyncDependencyInjector`. A database connected once at
// start-up, repositories, ten requests served concurrently, one route missing a dependency,
// the database handed to synchronous code, a test-like child with a fake, and a main-actor
// model built by the synchronous injector.
// Run it with `swift run AsyncServer`.
import Injector

let services = AsyncDependencyInjector()
let requests = [
    (1, "/users", 1), (2, "/orders", 2), (3, "/users", 3), (4, "/checkout", 1), (5, "/orders", 1),
    (6, "/users", 2), (7, "/users", 9), (8, "/orders", 3), (9, "/users", 1), (10, "/orders", 1),
].map { Request(number: $0.0, route: $0.1, userID: $0.2) }

do {
    print("1. Start-up: installing the modules connects the database (an eager singleton):")
    try await services.install(PersistenceModule(), RoutesModule())
    print("  installed; the database was created by `install`, before any request")

    print("2. \(requests.count) requests served concurrently, each from a child injector holding the request:")
    let responses = await withTaskGroup(of: Response.self) { group in
        for request in requests {
            group.addTask { await serve(request, from: services) }
        }
        var responses: [Response] = []
        for await response in group { responses.append(response) }
        return responses.sorted { $0.request.number < $1.request.number }
    }
    for response in responses { print("  \(response)") }
    let database = try await services.resolve(Database.self)
    print("  one Database served them all: \(await database.queryCount) queries")
    for response in responses {
        guard let error = response.error else { continue }
        print("  #\(response.request.number) failed gracefully with a typed InjectionError:")
        print(error.description.split(separator: "\n").map { "  | \($0)" }.joined(separator: "\n"))
    }

    print("3. export(_:to:) hands the database to synchronous code, where @Inject reads it:")
    try await services.export(Database.self, to: .shared)
    let status = StatusPage()
    print("  \(status.summary); the same instance as the async one: \(status.database === database)")

    print("4. A test-like child injector adds a fake payment gateway; the server's injector is untouched:")
    let checkout = Request(number: 11, route: "/checkout", userID: 1)
    let test = services.child()
    await test.register(FakePayments() as any PaymentGateway)
    print("  in the test child: \(await serve(checkout, from: test))")
    print("  in the server:     \(await serve(checkout, from: services))")

    print("5. A @MainActor dashboard model from the synchronous injector, after all these awaits:")
    DependencyInjector.shared.registerDashboard()
    let early = await Task.detached { () -> String in
        do throws(InjectionError) {
            _ = try DependencyInjector.shared.resolve(DashboardModel.self)
            return "resolved"
        } catch {
            return "\(error.description.split(separator: "\n")[0])"
        }
    }.value
    print("  from a background task, before it exists: \(early)")
    let dashboard = try DependencyInjector.shared.resolve(DashboardModel.self)  // top-level code is on the main actor
    print("  on the main actor: \(await dashboard.refresh())")
    let later = try await Task.detached { try DependencyInjector.shared.resolve(DashboardModel.self) }.value
    print("  from a background task, once created: the same model: \(later === dashboard)")
    print("AsyncServer finished.")
} catch {
    print("AsyncServer failed: \(error)")
}
