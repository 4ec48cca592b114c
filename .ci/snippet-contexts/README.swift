// What README.md's Swift blocks assume (see .ci/snippets): the Quick Start's app module,
// which the test block imports as `MyApp`.
import Foundation
import Injector

protocol WeatherService: Sendable {
    func forecast(for city: String) -> String
}

struct LiveWeather: WeatherService {
    let baseURL: String
    func forecast(for city: String) -> String { "sunny in \(city)" }
}

final class Logger: Sendable {
    func log(_ message: String) { print(message) }
}

final class ForecastScreen {
    @Inject var weather: any WeatherService
    @Inject var logger: Logger

    func show(_ city: String) { logger.log(weather.forecast(for: city)) }
}

func registerServices(in injector: DependencyInjector) {
    injector.register(Logger.self, scope: .singleton) { _ in Logger() }
    injector.register((any WeatherService).self) { _ in LiveWeather(baseURL: "https://api.weather.example") }
}

final class Database: Sendable {
    static func connect(to url: String) async throws -> Database { Database() }
}

struct StubWeather: WeatherService {
    func forecast(for city: String) -> String { "21°C in \(city)" }
}

let injector = DependencyInjector()

/// A request's unit of work, in the server snippet.
final class Transaction: Sendable {
    static func begin(_ database: Database) async throws -> Transaction { Transaction() }
    func commit() async throws {}
}

final class OrderHandler: Sendable {
    func handle() async throws {}
}

let services = AsyncDependencyInjector()
