import Injector
import Testing

private final class ThreeWrappers {
    @Inject var service: Service
    @LazyInject var lazyService: Service
    @OptionalInject var greeter: (any Greeter)?
    @OptionalInject var missing: NodeA?
}

private final class ProvidingModule {
    @Provider var motto: String = "providing"
}

private enum RetriesKey: InjectionKey {
    static let defaultValue = 3
}

extension InjectedValues {
    fileprivate var retries: Int {
        get { self[RetriesKey.self] }
        set { self[RetriesKey.self] = newValue }
    }
}

/// A resolve that succeeds throws and catches nothing inside the library: test runners record
/// a backtrace for every thrown error, so a throw on the success path made resolves 15 times
/// slower inside `swift test` (issue 14). Each kind of resolve runs 10,000 times, counted by the
/// runtime's will-throw hooks.
@Suite struct SuccessPathTests {
    static let iterations = 10_000

    /// The ways to resolve successfully, each ready to run `iterations` times.
    enum Kind: String, CaseIterable, CustomTestStringConvertible {
        case registeredInstance, protocolInstance, transientWithDependencies, firstSingleton, laterSingleton,
            weakInstance, named, childFallThrough, childTransient, overridesScope, observed, arguments,
            wrappers, provider, keyPath, providerHandle

        var testDescription: String { rawValue }

        /// A closure that resolves once, with what it needs already registered.
        func prepare() throws -> () throws -> Void {
            let injector = DependencyInjector()
            injector.register(Service(label: "instance"))
            injector.register(EnglishGreeter() as any Greeter)
            switch self {
            case .registeredInstance:
                return { _ = try injector.resolve(Service.self) }
            case .protocolInstance:
                return { _ = try injector.resolve((any Greeter).self) }
            case .transientWithDependencies:
                injector.register(Dependent.self) { r in Dependent(service: try r.resolve()) }
                return { _ = try injector.resolve(Dependent.self) }
            case .firstSingleton:
                return {
                    let fresh = DependencyInjector()
                    fresh.register(Service.self, scope: .singleton) { _ in Service() }
                    _ = try fresh.resolve(Service.self)
                }
            case .laterSingleton:
                injector.register(Dependent.self, scope: .singleton) { r in Dependent(service: try r.resolve()) }
                return { _ = try injector.resolve(Dependent.self) }
            case .weakInstance:
                injector.register(Dependent.self, scope: .weak) { r in Dependent(service: try r.resolve()) }
                return { _ = try injector.resolve(Dependent.self) }
            case .named:
                injector.register("https://example.com", name: "baseURL")
                return { _ = try injector.resolve(String.self, name: "baseURL") }
            case .childFallThrough:
                var child = injector
                for _ in 0..<5 { child = child.child() }
                let leaf = child
                return { _ = try leaf.resolve(Service.self) }
            case .childTransient:
                injector.register(Dependent.self) { r in Dependent(service: try r.resolve()) }
                let child = injector.child()
                child.register(Service(label: "override"))
                return { _ = try child.resolve(Dependent.self) }
            case .overridesScope:
                injector.register(Dependent.self, scope: .singleton) { r in Dependent(service: try r.resolve()) }
                return {
                    try injector.withOverrides({ $0.register(Service(label: "mock")) }) {
                        _ = try DependencyInjector.current.resolve(Dependent.self)
                    }
                }
            case .observed:
                injector.observe { _ in }
                injector.register(Dependent.self) { r in Dependent(service: try r.resolve()) }
                return { _ = try injector.resolve(Dependent.self) }
            case .arguments:
                injector.register(Box<Int>.self) { (_, value: Int) in Box(value: value) }
                return { _ = try injector.resolve(Box<Int>.self, arguments: 7) }
            case .wrappers:
                return {
                    try DependencyInjector.$current.withValue(injector) {
                        let owner = ThreeWrappers()
                        _ = owner.lazyService
                        _ = owner.lazyService
                        _ = try #require(owner.greeter)
                        _ = owner.service
                    }
                }
            case .provider:
                return {
                    _ = ProvidingModule()
                    _ = try DependencyInjector.current.resolve(String.self)
                }
            case .keyPath:
                injector.values.retries = 5
                return { _ = injector.resolve(\.retries) }
            case .providerHandle:
                let makeService = injector.provider(for: Service.self)
                return { _ = try makeService() }
            }
        }
    }

    @Test func theCounterSeesThrowsSoThatZeroMeansSomething() throws {
        struct Untyped: Error {}
        let untyped = ThrownErrors.count { _ = try? { () throws -> Void in throw Untyped() }() }
        let typed = ThrownErrors.count {
            _ = try? { () throws(InjectionError) -> Void in throw .circularDependency(path: []) }()
        }
        #expect(untyped == 1)
        #expect(typed == 1)
    }

    @Test(arguments: Kind.allCases)
    func resolvingSuccessfullyThrowsNothing(_ kind: Kind) throws {
        let resolve = try DependencyInjector.$current.withValue(DependencyInjector()) { try kind.prepare() }
        // `.provider` registers into `current`: give it an injector of its own.
        let scope = DependencyInjector()
        var failure: (any Error)?
        let thrown = ThrownErrors.count {
            DependencyInjector.$current.withValue(scope) {
                for _ in 0..<Self.iterations {
                    do { try resolve() } catch {
                        failure = error
                        return
                    }
                }
            }
        }
        #expect(failure == nil)
        #expect(thrown == 0)
    }

    @Test(arguments: [Scope.transient, .singleton])
    func asyncResolvesThrowNothing(scope: Scope) async throws {
        let injector = AsyncDependencyInjector()
        await injector.register(Service(label: "instance"))
        await injector.register(Dependent.self, scope: scope) { r in try await Dependent(service: r.resolve()) }
        let child = injector.child()
        var failure: (any Error)?
        let thrown = await ThrownErrors.count {
            do {
                for _ in 0..<Self.iterations {
                    _ = try await injector.resolve(Service.self)
                    _ = try await child.resolve(Dependent.self)
                    let fresh = AsyncDependencyInjector()
                    await fresh.register(Service.self, scope: scope) { _ in Service() }
                    _ = try await fresh.resolve(Service.self)
                }
            } catch {
                failure = error
            }
        }
        #expect(failure == nil)
        #expect(thrown == 0)
    }
}
