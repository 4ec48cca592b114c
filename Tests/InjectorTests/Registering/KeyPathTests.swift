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

/// A key whose value is optional, with a default that is not `nil`.
private enum ServerNameKey: InjectionKey {
    static var defaultValue: String? { "live" }
}

extension InjectedValues {
    fileprivate var serverName: String? {
        get { self[ServerNameKey.self] }
        set { self[ServerNameKey.self] = newValue }
    }
}

private enum OfflineKey: InjectionKey {
    static let defaultValue = false
}

extension InjectedValues {
    fileprivate var offline: Bool {
        get { self[OfflineKey.self] }
        set { self[OfflineKey.self] = newValue }
    }

    /// A property that reads a key only when another says so.
    fileprivate var connection: String {
        self[OfflineKey.self] ? "offline, \(self[RetryLimitKey.self]) retries" : self[NetworkProviderKey.self].name
    }

    /// A property that reads two keys.
    fileprivate var retriesOnNetwork: String { "\(self[RetryLimitKey.self]) on \(self[NetworkProviderKey.self].name)" }
}

private final class StatusScreen {
    @Inject(\.serverName) var serverName: String?
}

/// What a test registers for `\.serverName` (default "live"), and what reading it gives.
enum ServerNameRegistration: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case nothing
    case throwingFactory
    case value
    case factory
    case explicitNil
    case factoryOfNil

    var testDescription: String { rawValue }

    var expected: String? {
        switch self {
        case .nothing, .throwingFactory: "live"
        case .value: "registered"
        case .factory: "made"
        case .explicitNil, .factoryOfNil: nil
        }
    }

    func register(in injector: FaceInjector) async {
        switch self {
        case .nothing: break
        case .throwingFactory: await injector.register(\.serverName) { throw SampleError(code: 1) }
        case .value: injector.setValue(\.serverName, "registered")
        case .factory: await injector.register(\.serverName) { "made" }
        case .explicitNil: injector.setValue(\.serverName, nil)
        case .factoryOfNil: await injector.register(\.serverName) { nil }
        }
    }
}

@Suite struct KeyPathTests {
    /// Regression: `register(\.networkProvider.name)` stored a `String` under the network's key,
    /// and every read of the network fell back to its default.
    @Test func aKeyPathThatIsNotAnInjectedValuesOwnPropertyIsNotRegistered() async {
        let injector = DependencyInjector()
        injector.register(\.networkProvider, scope: .singleton) { _ in MockNetwork(name: "mock") }
        withKnownIssue {
            injector.register(\.networkProvider.name) { _ in "nested" }
        } matching: {
            // Where, and what: a key path prints its accessors' addresses, which name nothing.
            let said = "Injector did not register the key path of Swift.String at InjectorTests/KeyPathTests.swift:"
            return $0.description.contains(said) && !$0.description.contains("0x")
        }
        #expect(injector.resolve(\.networkProvider).name == "mock")
        #expect(injector.resolve(\.networkProvider.name) == "mock")
        let actor = AsyncDependencyInjector()
        await withKnownIssue {
            await actor.register(\.networkProvider.name) { _ in "nested" }
        } matching: {
            $0.description.contains("whose value is any InjectorTests.NetworkProviding, not Swift.String")
        }
        #expect(await actor.resolve(\.networkProvider.name) == "live")
    }

    /// A property that reads two keys reads both on either face, and is not registered, with a
    /// message that says why. (Catches: the actor face read the last key's value for both, and
    /// the message said "whose value is Swift.String, not Swift.String".)
    @Test(arguments: Face.allCases)
    func aPropertyThatReadsTwoKeysReadsBoth(face: Face) async {
        let injector = face.makeInjector()
        injector.setValue(\.retryLimit, 7)
        injector.setValue(\.networkProvider, MockNetwork(name: "mock"))
        #expect(await injector.resolve(\.retriesOnNetwork) == "7 on mock")
        let sync = DependencyInjector()
        withKnownIssue {
            sync.register(\.retriesOnNetwork) { _ in "made" }
        } matching: {
            $0.description.contains(
                "it reads 2 keys: InjectorTests.RetryLimitKey (private), InjectorTests.NetworkProviderKey")
        }
    }

    /// A property that reads a key only on some values reads it on either face. (Catches: the
    /// actor face resolved the keys a read with the defaults met, and read the default of the
    /// others.)
    @Test(arguments: Face.allCases)
    func aPropertyThatReadsAKeyOnlyOnSomeValuesReadsIt(face: Face) async {
        let injector = face.makeInjector()
        injector.setValue(\.offline, true)
        injector.setValue(\.retryLimit, 7)
        // The key the property does not read on these values: its factory never runs (found
        // by a review: the actor face resolved the keys a read with the defaults met).
        let networks = Counter()
        await injector.register(\.networkProvider) {
            networks.increment()
            return MockNetwork(name: "unread")
        }
        #expect(await injector.resolve(\.connection) == "offline, 7 retries")
        #expect(networks.value == 0)
    }

    @Test(arguments: Face.allCases)
    func withoutARegistrationTheDefaultIsRead(face: Face) async {
        let injector = face.makeInjector()
        #expect(await injector.resolve(\.networkProvider).name == "live")
        #expect(await injector.resolve(\.retryLimit) == 3)
    }

    @Test(arguments: Face.allCases)
    func aRegistrationThroughTheKeyPathOverridesTheDefault(face: Face) async {
        let parent = face.makeInjector()
        parent.setValue(\.networkProvider, MockNetwork(name: "mock"))
        let child = parent.child()
        child.setValue(\.retryLimit, 7)

        #expect(await child.resolve(\.networkProvider).name == "mock")
        #expect(await child.resolve(\.retryLimit) == 7)
        #expect(await parent.resolve(\.retryLimit) == 3)  // the child's registration stays in the child
    }

    @Test func wrappersAndValuesReadAndWriteThroughTheKeyPath() {
        let injector = DependencyInjector()
        let before = DependencyInjector.$current.withValue(injector) { FeedScreen() }
        #expect(before.network.name == "live")
        #expect(before.retries == 3)

        injector.register(\.networkProvider) { _ in MockNetwork(name: "mock") }
        injector.values.retryLimit = 7

        let after = DependencyInjector.$current.withValue(injector) { FeedScreen() }
        #expect(after.network.name == "mock")
        #expect(after.retries == 7)
        #expect(injector.values.retryLimit == 7)
    }

    @Test(arguments: Face.allCases)
    func aKeyPathDependencyIsARegistrationKeyedByItsKeyType(face: Face) async {
        let injector = face.makeInjector()
        let calls = Counter()
        await injector.register(\.networkProvider, scope: .singleton) {
            MockNetwork(name: "singleton \(calls.increment())")
        }

        #expect(await injector.resolve(\.networkProvider).name == "singleton 1")
        #expect(await injector.resolve(\.networkProvider).name == "singleton 1")
        #expect(await injector.isRegistered(NetworkProviderKey.self))
    }

    // The key is the key type, the factory makes the value type: a resolve by the key type
    // must not take the factory's value for a key-type value.
    @Test(arguments: Face.allCases)
    func resolvingTheKeyTypeOfATransientKeyPathFactoryThrowsInsteadOfMisreadingTheValue(face: Face) async {
        let injector = face.makeInjector()
        await injector.register(\.retryLimit) { 9 }

        #expect(await injector.resolveError(RetryLimitKey.self) != nil)
        #expect(await injector.resolve(\.retryLimit) == 9)
    }

    @Test(arguments: Face.allCases)
    func aFailingRegistrationFallsBackToTheDefault(face: Face) async {
        let injector = face.makeInjector()
        await injector.register(\.retryLimit) { throw SampleError(code: 1) }
        #expect(await injector.resolve(\.retryLimit) == 3)
    }

    @Test func theActorFaceAwaitsAnAsyncKeyPathFactory() async {
        let injector = AsyncDependencyInjector()
        await injector.register(\.networkProvider, scope: .singleton) { _ in
            await Task.yield()
            return MockNetwork(name: "awaited")
        }
        #expect(await injector.resolve(\.networkProvider).name == "awaited")
    }

    @Test func anOverrideInOneTaskDoesNotReachAParallelOne() async {
        let app = DependencyInjector()
        async let overridden = app.withOverrides({ $0.values.networkProvider = MockNetwork(name: "mock") }) {
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

    /// An optional value fell back to nothing: with nothing registered (or a factory that
    /// throws), `resolve(\.serverName)` gave `nil`, not the key's default. A registered value,
    /// `nil` included, is still what a read gives.
    @Test(arguments: Face.allCases, ServerNameRegistration.allCases)
    func anOptionalValueIsItsDefaultOnlyWhenNothingIsRegistered(face: Face, registration: ServerNameRegistration)
        async
    {
        let injector = face.makeInjector()
        await registration.register(in: injector)
        #expect(await injector.resolve(\.serverName) == registration.expected)
    }

    /// The same through `values` and `@Inject(\.serverName)`, which only the sync face has.
    @Test(arguments: ServerNameRegistration.allCases)
    func valuesAndInjectReadAnOptionalValueOrItsDefault(registration: ServerNameRegistration) async {
        let injector = DependencyInjector()
        await registration.register(in: FaceInjector(.sync(injector)))
        #expect(injector.values.serverName == registration.expected)
        #expect(DependencyInjector.$current.withValue(injector) { StatusScreen() }.serverName == registration.expected)
    }

    @Test func assigningNilThroughValuesIsReadBackAsNil() {
        let injector = DependencyInjector()
        injector.values.serverName = nil
        #expect(injector.values.serverName == nil)
        #expect(injector.resolve(\.serverName) == nil)
    }
}
