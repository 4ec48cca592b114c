import Injector
import TestSupport
import Testing

/// The paths an observer hears where the actor face runs synchronous factories: each key once.
@Suite struct MixedFaceObservationTests {
    final class RA: Sendable {
        let b: RB
        init(b: RB) { self.b = b }
    }
    final class RB: Sendable {
        let c: RC
        init(c: RC) { self.c = c }
    }
    final class RC: Sendable {}

    private static func paths(_ events: [ResolutionEvent]) -> [String] {
        events.map { $0.path.map { String(describing: $0.type) }.joined(separator: " → ") }
    }

    /// A sync factory the actor face runs inside an async one: each event's path names each key
    /// once. (Catches: the path began at the sync factory.)
    @Test func aSyncFactoryInsideAnAsyncOneIsNamedOnce() async throws {
        let injector = AsyncDependencyInjector()
        injector.synchronous.register(RC.self) { _ in RC() }
        injector.synchronous.register(RB.self) { r in RB(c: try r.resolve()) }
        await injector.register(RA.self) { r in RA(b: try await r.resolve(RB.self)) }
        let events = Collected<ResolutionEvent>()
        await injector.observe { events.append($0) }
        _ = try await injector.resolve(RA.self)
        let paths = Self.paths(events.values)
        #expect(paths.contains("RA → RB → RC"))
        #expect(paths.contains("RA → RB"))
    }

    /// The same, through the sync face of the resolver.
    @Test func aSyncResolveInsideAnAsyncFactoryIsNamedOnce() async throws {
        let injector = AsyncDependencyInjector()
        injector.synchronous.register(RC.self) { _ in RC() }
        injector.synchronous.register(RB.self) { r in RB(c: try r.resolve()) }
        await injector.register(RA.self) { r in RA(b: try r.synchronous.resolve(RB.self)) }
        let events = Collected<ResolutionEvent>()
        await injector.observe { events.append($0) }
        _ = try await injector.resolve(RA.self)
        let paths = Self.paths(events.values)
        #expect(paths.contains("RA → RB → RC"))
    }
}
