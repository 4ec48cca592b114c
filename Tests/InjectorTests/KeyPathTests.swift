import Injector
import Testing

protocol NetworkProviding: Sendable {
    var name: String { get }
}

struct LiveNetwork: NetworkProviding {
    var name: String { "live" }
}

struct MockNetwork: NetworkProviding {
    let name: String
}

private enum NetworkProviderKey: InjectionKey {
    static var defaultValue: any NetworkProviding { LiveNetwork() }
}

private enum RetryLimitKey: InjectionKey {
    static let defaultValue = 3
}

extension InjectedValues {
    var networkProvider: any NetworkProviding {
        get { self[NetworkProviderKey.self] }
        set { self[NetworkProviderKey.self] = newValue }
    }

    var retryLimit: Int {
        get { self[RetryLimitKey.self] }
        set { self[RetryLimitKey.self] = newValue }
    }
}

private final class FeedScreen {
    @Inject(\.networkProvider) var network: any NetworkProviding
    @Inject(\.retryLimit) var retries: Int
}

@Suite struct KeyPathTests {
    @Test func withoutARegistrationTheDefaultIsRead() {
        let screen = DependencyInjector.$current.withValue(DependencyInjector()) { FeedScreen() }
        #expect(screen.network.name == "live")
        #expect(screen.retries == 3)
    }

    @Test func aRegistrationThroughTheKeyPathOverridesTheDefault() {
        let injector = DependencyInjector()
        injector.register(\.networkProvider, MockNetwork(name: "mock"))
        injector.values.retryLimit = 7

        let screen = DependencyInjector.$current.withValue(injector) { FeedScreen() }
        #expect(screen.network.name == "mock")
        #expect(screen.retries == 7)
        #expect(injector.resolve(\.retryLimit) == 7)
    }

    @Test func aKeyPathDependencyIsARegistrationKeyedByItsKeyType() {
        let injector = DependencyInjector()
        let calls = Counter()
        injector.register(\.networkProvider, scope: .singleton) { _ in
            MockNetwork(name: "singleton \(calls.increment())")
        }

        #expect(injector.resolve(\.networkProvider).name == "singleton 1")
        #expect(injector.resolve(\.networkProvider).name == "singleton 1")
        #expect(injector.isRegistered(NetworkProviderKey.self))
    }

    // The key is the key type, the factory makes the value type: a resolve by the key type
    // must not take the factory's value for a key-type value.
    @Test func resolvingTheKeyTypeOfATransientKeyPathFactoryThrowsInsteadOfMisreadingTheValue() {
        let injector = DependencyInjector()
        injector.register(\.retryLimit) { _ in 9 }

        #expect(throws: InjectionError.self) { try injector.resolve(RetryLimitKey.self) }
        #expect(injector.resolve(\.retryLimit) == 9)
    }

    @Test func aFailingRegistrationFallsBackToTheDefault() {
        let injector = DependencyInjector()
        injector.register(\.retryLimit) { _ in throw SampleError(code: 1) }
        #expect(injector.resolve(\.retryLimit) == 3)
    }

    @Test func anOverrideInOneTaskDoesNotReachAParallelOne() async {
        let app = DependencyInjector()
        async let overridden = app.withOverrides({ $0.register(\.networkProvider, MockNetwork(name: "mock")) }) {
            await Task.yield()
            return FeedScreen().network.name
        }
        async let plain = app.withOverrides({ _ in }) {
            await Task.yield()
            return FeedScreen().network.name
        }
        #expect(await overridden == "mock")
        #expect(await plain == "live")
        #expect(app.resolve(\.networkProvider).name == "live")
    }
}
