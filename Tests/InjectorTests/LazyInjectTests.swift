import Foundation
import Injector
import Testing

// The backing storage of a wrapped property is a `var`, so a class that has one cannot be
// checked `Sendable`. `@LazyInject` guards its own state with a lock, so these are honest.
private final class ReportScreen: @unchecked Sendable {
    @LazyInject var service: Service
    @LazyInject(name: "title") var title: String
}

/// Lazy properties of a protocol type (a struct behind it), an optional and an array.
private final class Kinds: @unchecked Sendable {
    @LazyInject var foo: any FooService
    @LazyInject var maybe: Int?
    @LazyInject var pair: [String]
}

/// Needs `Pong`, which needs `Ping` back: `@LazyInject` on one side breaks the cycle.
private final class Ping: @unchecked Sendable {
    @LazyInject var pong: Pong
}

private final class Pong: @unchecked Sendable {
    @Inject var ping: Ping
}

@Suite struct LazyInjectTests {
    @Test func resolvesOnFirstReadThenKeepsTheValue() {
        let injector = DependencyInjector()
        let calls = Counter()
        injector.register(Service.self) { _ in Service(label: "call \(calls.increment())") }

        let screen = DependencyInjector.$current.withValue(injector) { ReportScreen() }
        #expect(calls.value == 0)
        #expect(screen.service.label == "call 1")
        #expect(screen.service.label == "call 1")
        #expect(calls.value == 1)
    }

    @Test func seesRegistrationsMadeAfterInitAndUsesTheInjectorCapturedAtInit() async {
        let injector = DependencyInjector()
        let screen = DependencyInjector.$current.withValue(injector) { ReportScreen() }
        injector.register("Quarterly", name: "title")

        // Read outside the scope, from another task: still the injector captured at init.
        let title = await Task.detached { screen.title }.value
        #expect(title == "Quarterly")
    }

    @Test func aFailedResolutionIsNotKeptAndTheNextReadRetries() throws {
        let injector = DependencyInjector()
        let screen = DependencyInjector.$current.withValue(injector) { ReportScreen() }
        guard case .failure(.notRegistered) = screen.$service else {
            Issue.record("expected notRegistered, got \(screen.$service)")
            return
        }

        injector.register(Service(label: "late"))
        #expect(try screen.$service.get().label == "late")
    }

    @Test func keptValuesOfEveryKindReadBackUnchanged() throws {
        let injector = DependencyInjector()
        injector.register(Foo("first") as any FooService)
        injector.register(Optional(7), as: Int?.self)
        injector.register(["a", "b"])
        let kinds = DependencyInjector.$current.withValue(injector) { Kinds() }

        for _ in 0..<2 {  // the first read resolves and keeps; the second reads what was kept
            #expect(kinds.foo.message() == "first")
            #expect(kinds.maybe == 7)
            #expect(kinds.pair == ["a", "b"])
        }
        kinds.foo = Foo("stub")
        kinds.maybe = nil
        #expect(kinds.foo.message() == "stub")
        #expect(kinds.maybe == nil)
        #expect(try kinds.$maybe.get() == nil)
    }

    @Test func assigningReplacesTheValue() {
        let screen = DependencyInjector.$current.withValue(DependencyInjector()) { ReportScreen() }
        screen.service = Service(label: "stub")
        #expect(screen.service.label == "stub")
    }

    @Test func eightThreadsReadingForTheFirstTimeResolveOnce() {
        for _ in 0..<20 {
            let injector = DependencyInjector()
            let calls = Counter()
            injector.register(Service.self) { _ in
                calls.increment()
                usleep(1_000)  // keeps the first resolution in flight while the others arrive
                return Service()
            }
            let screen = DependencyInjector.$current.withValue(injector) { ReportScreen() }
            let seen = Collected<Service>()
            runOnThreads(8) { _ in seen.append(screen.service) }

            #expect(calls.value == 1)
            #expect(seen.values.count == 8)
            #expect(seen.values.allSatisfy { $0 === seen.values.first })
        }
    }

    @Test func breaksACycleBetweenTwoTypes() throws {
        let injector = DependencyInjector()
        injector.register(Ping.self, scope: .singleton) { _ in Ping() }
        injector.register(Pong.self) { _ in Pong() }

        let ping = try injector.resolve(Ping.self)
        #expect(ping.pong.ping === ping)
    }
}
