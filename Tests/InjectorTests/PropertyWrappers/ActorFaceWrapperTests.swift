import Injector
import Testing

// What an actor face's factory builds: wrappers that resolve from that face.
protocol Clock: Sendable {
    func now() -> Int
}

struct FixedClock: Clock {
    let time: Int
    func now() -> Int { time }
}

final class Ledger: Sendable {}

/// A service of the kind Swift 6 servers write: `final`, `Sendable`, every property a `let`.
final class InvoiceService: Sendable {
    static let clockLine = #line + 1
    let clock = Injected<any Clock>()
    let ledger = Injected<Ledger>()

    func stamp() -> Int { clock().now() }
}

/// An object with the three wrappers; not `Sendable` (a wrapper's storage is a `var`), so
/// the tests hand out only what it resolved.
final class Report {
    @Inject var clock: any Clock
    @OptionalInject var ledger: Ledger?
    @LazyInject var lazyClock: any Clock
}

/// `@Inject`, `@OptionalInject`, `@LazyInject` and `Injected` in objects that the actor face's
/// factories build resolve from that face: its ready values and synchronous factories.
@Suite struct ActorFaceWrapperTests {
    @Test func wrappersOfWhatAnActorFactoryBuildsResolveFromIt() async throws {
        let server = AsyncDependencyInjector()
        await server.register(FixedClock(time: 7) as any Clock)
        server.synchronous.register(Ledger.self, scope: .singleton) { _ in Ledger() }
        await server.register(Int.self, name: "report") { _ in
            let report = Report()
            #expect(report.ledger != nil)
            return report.clock.now() + report.lazyClock.now()
        }
        #expect(try await server.resolve(Int.self, name: "report") == 14)

        // A child's factory sees the child's registrations.
        let child = server.child()
        await child.register(FixedClock(time: 1) as any Clock)
        await child.register(InvoiceService.self) { _ in InvoiceService() }
        let service = try await child.resolve(InvoiceService.self)
        #expect(service.stamp() == 1)
        #expect(service.ledger() === (try await server.resolve(Ledger.self)))
    }

    /// A resolver handed to a detached task, which has none of the run's bindings: what it
    /// resolves there binds this face as `current`, so its wrappers resolve from it.
    @Test func wrappersOfWhatAResolverMakesInADetachedTaskResolveFromItsFace() async throws {
        let server = AsyncDependencyInjector()
        await server.register(FixedClock(time: 7) as any Clock)
        await server.register(Ledger())
        await server.register(InvoiceService.self) { _ in InvoiceService() }
        await server.register(Int.self, name: "stamp") { r in
            try await Task.detached { try await r.resolve(InvoiceService.self).stamp() }.value
        }

        #expect(try await server.resolve(Int.self, name: "stamp") == 7)
    }

    @Test func aSendableServiceWhoseInjectedFailedFailsTheResolveWithThePropertyInThePath() async throws {
        let server = AsyncDependencyInjector()
        server.synchronous.register(Ledger.self) { _ in Ledger() }
        await server.register(InvoiceService.self) { _ in InvoiceService() }
        let error = await #expect(throws: InjectionError.self) { try await server.resolve(InvoiceService.self) }
        guard case .notRegistered(let key, let path, _)? = error else {
            Issue.record("expected notRegistered, got \(String(describing: error))")
            return
        }
        #expect(key == DependencyKey((any Clock).self))
        #expect(path.map(\.typeName) == ["InjectorTests.InvoiceService", "any InjectorTests.Clock"])
        #expect(path.last?.property?.name == "clock")
        #expect(path.last?.property?.line == InvoiceService.clockLine)
    }

    @Test func anAsyncOnlyDependencyOfAWrapperSaysToAwaitItOrPassItToInit() async throws {
        let server = AsyncDependencyInjector()
        server.synchronous.register(Ledger.self) { _ in Ledger() }
        await server.register((any Clock).self) { _ in
            await Task.yield()
            return FixedClock(time: 3)
        }
        await server.register(InvoiceService.self) { _ in InvoiceService() }
        let error = await #expect(throws: InjectionError.self) { try await server.resolve(InvoiceService.self) }
        guard case .factoryFailed(let key, _, _)? = error else {
            Issue.record("expected factoryFailed, got \(String(describing: error))")
            return
        }
        #expect(key == DependencyKey((any Clock).self))
        #expect(error?.description.contains("resolve it with `try await`") == true)
        #expect(error?.description.contains("pass it to the object's init") == true)
    }

    /// An app's injector holding the clock the actor face does not have.
    private static func appWithClock() -> DependencyInjector {
        let app = DependencyInjector()
        app.register(FixedClock(time: 5) as any Clock)
        return app
    }

    /// Also inside a chain: what a factory builds, whose value another factory asked for,
    /// falls back to the injector bound outside the outermost resolve.
    @Test func whatTheActorCannotAnswerComesFromTheInjectorBoundOutside() async throws {
        let server = AsyncDependencyInjector()
        await server.register(Int.self, name: "report") { _ in Report().clock.now() }
        await server.register(Int.self, name: "twice") { r in try await 2 * r.resolve(Int.self, name: "report") }
        let (time, twice) = try await DependencyInjector.$current.withValue(Self.appWithClock()) {
            (try await server.resolve(Int.self, name: "report"), try await server.resolve(Int.self, name: "twice"))
        }
        #expect(time == 5)
        #expect(twice == 10)
    }

    /// What an `initCompleted` hook builds resolves from the face too, as on the synchronous
    /// injector: the face is `current` for the whole run, the hook included (it used to run
    /// with the injector bound outside as `current`).
    @Test func whatACompletionBuildsResolvesFromTheFaceAsOnTheSyncInjector() async throws {
        let app = Self.appWithClock()
        let server = AsyncDependencyInjector()
        await server.register(FixedClock(time: 7) as any Clock)
        let seen = Collected<Int>()
        await server.register(Ledger.self) { _ in Ledger() }
            .initCompleted { _, _ in seen.append(Report().clock.now()) }
        _ = try await DependencyInjector.$current.withValue(app) { try await server.resolve(Ledger.self) }

        let sync = DependencyInjector()
        sync.register(FixedClock(time: 7) as any Clock)
        sync.register(Ledger.self) { _ in Ledger() }.initCompleted { _, _ in seen.append(Report().clock.now()) }
        _ = try DependencyInjector.$current.withValue(app) { try sync.resolve(Ledger.self) }

        #expect(seen.values == [7, 7])
    }
}
