// What Decorators.md's Swift blocks assume (see .ci/snippets): the decorated service, its
// layers, and a screen that uses it.
import Injector

var injector: DependencyInjector { .shared }
var server: AsyncDependencyInjector { .shared }

// The decorated service.
protocol WeatherAPI: Sendable {}
final class LiveWeatherAPI: WeatherAPI {}
final class RetryingWeatherAPI: WeatherAPI {
    init(_ inner: any WeatherAPI, attempts: Int) {}
}
final class LoggingWeatherAPI: WeatherAPI {
    init(_ inner: any WeatherAPI) {}
}
final class SpyWeatherAPI: WeatherAPI {
    init(_ inner: any WeatherAPI) {}
}
final class CachingWeatherAPI: WeatherAPI {
    init(_ inner: any WeatherAPI, cache: ResponseCache) {}
}
final class ResponseCache: Sendable {}
struct WeatherScreen {
    static func make() throws -> WeatherScreen { WeatherScreen() }
    func refresh() throws {}
}
