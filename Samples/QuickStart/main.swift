// QuickStart: register a few services, resolve a small graph, and catch a typed error.
// Run it with `swift run QuickStart`.
import Injector

protocol WeatherService: Sendable {
    func forecast(for city: String) -> String
}

struct LiveWeather: WeatherService {
    let baseURL: String
    func forecast(for city: String) -> String { "sunny in \(city) (from \(baseURL))" }
}

struct MockWeather: WeatherService {
    func forecast(for city: String) -> String { "always 21°C in \(city) (mock)" }
}

/// One logger for the whole app: a singleton.
final class Logger: Sendable {
    init() { print("  (Logger created once)") }
    func log(_ message: String) { print("  log: \(message)") }
}

/// Built fresh on every resolve, with its dependencies resolved by the injector.
struct ForecastScreen {
    let weather: any WeatherService
    let logger: Logger

    func show(_ city: String) {
        logger.log(weather.forecast(for: city))
    }
}

let injector = DependencyInjector()
injector.register("https://api.weather.example", name: "weatherBaseURL")
injector.register(Logger.self, scope: .singleton) { _ in Logger() }
injector.register((any WeatherService).self) { r in
    try LiveWeather(baseURL: r.resolve(String.self, name: "weatherBaseURL"))
}
injector.register(ForecastScreen.self) { r in
    try ForecastScreen(weather: r.resolve(), logger: r.resolve())
}

do {
    print("1. The live graph:")
    try injector.resolve(ForecastScreen.self).show("Lisbon")
    try injector.resolve(ForecastScreen.self).show("Oslo")

    print("2. A child injector swaps in the mock; the parent keeps the live service:")
    let preview = injector.child()
    preview.register(MockWeather() as any WeatherService)
    try preview.resolve(ForecastScreen.self).show("Lisbon")
    try injector.resolve(ForecastScreen.self).show("Lisbon")
} catch {
    print("unexpected: \(error)")
}

print("3. A typed error, caught without a cast:")
struct Checkout {}
injector.register(Checkout.self) { r in
    _ = try r.resolve(String.self, name: "paymentsKey")
    return Checkout()
}
do {
    _ = try injector.resolve(Checkout.self)
} catch {
    // `error` is an InjectionError: typed throws, no cast needed.
    if case .notRegistered(let key, _, _) = error {
        print("  missing \(key). The whole message:")
    }
    print(error.description.split(separator: "\n").map { "  | \($0)" }.joined(separator: "\n"))
}
print("QuickStart finished.")
