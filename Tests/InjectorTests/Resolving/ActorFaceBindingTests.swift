import TestSupport
import Testing

@testable import Injector

/// Which actor face's factory a task sees running (`ActorFaceCurrent.running`), and where the
/// wrappers of what a factory builds resolve from, where a run's frames are bound from a value
/// captured elsewhere: a creation started from another face's factory, a task the factory
/// started, `withScope` in a factory, a `@LazyInject` first read in another run, user code
/// rebinding `current`, completions and decorators. Written for the change that binds the
/// frames and the face as one task-local; each holds before and after it.
@Suite struct ActorFaceBindingTests {
    struct Clock: Sendable {
        let time: Int
    }

    final class Report {
        @OptionalInject var clock: Clock?
    }

    final class LazyReport: @unchecked Sendable {
        // `@unchecked Sendable`: read by one task at a time here.
        @LazyInject var clock: Clock
    }

    /// What `ActorFaceCurrent.running` says now: the face's registry and the injector bound outside.
    struct Seen: Equatable, Sendable, CustomStringConvertible {
        let core: ObjectIdentifier?
        let outside: ObjectIdentifier?
        let frames: Int

        static var now: Seen {
            let running = ActorFaceCurrent.running
            return Seen(
                core: running.map { ObjectIdentifier($0.core) },
                outside: running.map { ObjectIdentifier($0.outside) },
                frames: AsyncResolutionContext.frames.count)
        }

        static func face(_ core: DependencyInjector, outside: DependencyInjector, frames: Int) -> Seen {
            Seen(core: ObjectIdentifier(core), outside: ObjectIdentifier(outside), frames: frames)
        }

        static func none(frames: Int) -> Seen { Seen(core: nil, outside: nil, frames: frames) }

        var description: String {
            "core \(String(describing: core)) outside \(String(describing: outside)) frames \(frames)"
        }
    }

    private static func app(_ time: Int) -> DependencyInjector {
        let app = DependencyInjector()
        app.register(Clock(time: time))
        return app
    }

    /// A singleton of face S asked for by face T's factory: its creation's task copies T's run's
    /// bindings; S's factory sees S bound, the injector bound outside T outside it.
    @Test func aCreationsTaskStartedInAnotherFacesRunSeesItsOwnFaceAndTheOutermostOutside() async throws {
        let app = Self.app(5)
        let s = AsyncDependencyInjector()
        let t = AsyncDependencyInjector()
        await t.register(Clock(time: 9))
        let seen = Collected<Seen>()
        let times = Collected<Int>()
        await s.register(String.self, scope: .singleton) { _ in
            seen.append(.now)
            times.append(Report().clock?.time ?? -1)
            return "s"
        }
        await t.register(Int.self) { _ in
            seen.append(.now)
            _ = try await s.resolve(String.self)
            seen.append(.now)
            return 0
        }
        _ = try await DependencyInjector.$current.withValue(app) { try await t.resolve(Int.self) }
        #expect(
            seen.values == [
                .face(t.core, outside: app, frames: 1), .face(s.core, outside: app, frames: 2),
                .face(t.core, outside: app, frames: 1),
            ])
        #expect(times.values == [5])
    }

    /// A child's factory resolves its parent's singleton: the parent builds it; its wrappers
    /// never fall back to the child.
    @Test func aParentSingletonAskedForByAChildsFactoryNeverFallsBackToTheChild() async throws {
        let app = Self.app(5)
        let server = AsyncDependencyInjector()
        let child = server.child()
        await child.register(Clock(time: 1))
        let times = Collected<Int>()
        let seen = Collected<Seen>()
        await server.register(String.self, scope: .singleton) { _ in
            seen.append(.now)
            times.append(Report().clock?.time ?? -1)
            return "s"
        }
        await child.register(Int.self) { _ in
            _ = try await child.resolve(String.self)
            return 0
        }
        _ = try await DependencyInjector.$current.withValue(app) { try await child.resolve(Int.self) }
        #expect(times.values == [5])
        #expect(seen.values == [.face(server.core, outside: app, frames: 2)])
    }

    /// A `Task {}` the factory started and that outlives its run: it copied the run's bindings,
    /// the face too; a resolve through the run's resolver there, and through the captured face.
    @Test func aTaskTheFactoryStartedResolvesWithTheFaceItCopied() async throws {
        let app = Self.app(5)
        let server = AsyncDependencyInjector()
        let seen = Collected<Seen>()
        let times = Collected<Int>()
        await server.register(Double.self) { _ in
            seen.append(.now)
            times.append(Report().clock?.time ?? -1)
            return 1
        }
        let gate = AsyncGate()
        await server.register(Task<Void, any Error>.self) { r in
            Task {
                await gate.wait()
                seen.append(.now)
                _ = try await r.resolve(Double.self)
                _ = try await server.resolve(Double.self)
                // A detached task: nothing bound.
                try await Task.detached {
                    seen.append(.now)
                    _ = try await r.resolve(Double.self)
                }.value
            }
        }
        let task = try await DependencyInjector.$current.withValue(app) {
            try await server.resolve(Task<Void, any Error>.self)
        }
        gate.open()
        try await task.value
        #expect(
            seen.values == [
                .face(server.core, outside: app, frames: 1),  // the copied bindings, its run ended
                .face(server.core, outside: app, frames: 2),  // r: a resolve of its own after it
                .face(server.core, outside: app, frames: 2),  // the captured face: copied frames
                .none(frames: 0),  // detached
                .face(server.core, outside: .shared, frames: 2),
            ])
        #expect(times.values == [5, 5, -1])
    }

    /// `withScope`'s body inside a factory's run: the scope is bound, the injector bound outside
    /// the run stays the fallback; the frames are the run's.
    @Test func withScopeInsideAFactorySeesTheScopeAndTheRunsOutside() async throws {
        let app = Self.app(5)
        let server = AsyncDependencyInjector()
        let seen = Collected<Seen>()
        let times = Collected<Int>()
        await server.register(Double.self) { _ in
            seen.append(.now)
            times.append(Report().clock?.time ?? -1)
            return 1
        }
        await server.register(Int.self) { _ in
            try await server.withScope { request in
                seen.append(.now)
                times.append(Report().clock?.time ?? -1)
                _ = try await request.resolve(Double.self)
                seen.append(.now)
                return 0
            }
        }
        let scopes = Collected<ObjectIdentifier>()
        _ = try await DependencyInjector.$current.withValue(app) {
            try await server.withScope { request in
                scopes.append(ObjectIdentifier(request.core))
                seen.append(.now)
                _ = try await server.resolve(Int.self)
                seen.append(.now)
            }
        }
        #expect(seen.values.count == 5)
        #expect(seen.values.first == Seen(core: scopes.values.first, outside: ObjectIdentifier(app), frames: 0))
        #expect(seen.values[1].outside == ObjectIdentifier(app) && seen.values[1].frames == 1)
        #expect(seen.values[2].outside == ObjectIdentifier(app) && seen.values[2].frames == 2)
        #expect(seen.values[3] == seen.values[1])
        #expect(seen.values.last == seen.values.first)
        #expect(times.values == [5, 5])
    }

    /// A `@LazyInject` made in S's run, first read in T's run in another task: S's registry,
    /// then the injector bound outside S's run; T's bindings stand around the read.
    @Test func aLazyInjectFirstReadInAnotherFacesRunResolvesFromItsOwnFace() async throws {
        let app = Self.app(5)
        let other = Self.app(7)
        let s = AsyncDependencyInjector()
        let t = AsyncDependencyInjector()
        await t.register(Clock(time: 9))
        let seen = Collected<Seen>()
        s.synchronous.register(Int.self, name: "probe") { _ in
            seen.append(.now)
            return 0
        }
        await s.register(LazyReport.self) { _ in LazyReport() }
        let report = try await DependencyInjector.$current.withValue(app) { try await s.resolve(LazyReport.self) }
        final class Box: @unchecked Sendable {
            let report: LazyReport
            init(_ report: LazyReport) { self.report = report }
        }
        let box = Box(report)
        await t.register(Int.self) { _ in
            try await Task {
                seen.append(.now)
                let time = try box.report.$clock.get().time
                seen.append(.now)
                return time
            }.value
        }
        let time = try await DependencyInjector.$current.withValue(other) { try await t.resolve(Int.self) }
        #expect(time == 5)
        #expect(
            seen.values == [.face(t.core, outside: other, frames: 1), .face(t.core, outside: other, frames: 1)])
    }

    /// The sync face's `current` rebound inside a factory, then a resolve of the same face:
    /// the rebound injector is the fallback; rebinding the face's own registry changes nothing.
    @Test func aBindingOfTheSyncCurrentInsideAFactoryIsTheFallbackOfANestedResolve() async throws {
        let app = Self.app(5)
        let inner = Self.app(3)
        let server = AsyncDependencyInjector()
        let other = AsyncDependencyInjector()
        let seen = Collected<Seen>()
        let times = Collected<Int>()
        await server.register(Double.self) { _ in
            seen.append(.now)
            times.append(Report().clock?.time ?? -1)
            return 1
        }
        await server.register(Int.self) { r in
            _ = try await DependencyInjector.$current.withValue(inner) { try await r.resolve(Double.self) }
            _ = try await DependencyInjector.$current.withValue(server.synchronous) { try await r.resolve(Double.self) }
            _ = try await AsyncDependencyInjector.$current.withValue(other) { try await r.resolve(Double.self) }
            _ = try await DependencyInjector.$current.withValue(inner) {
                try await AsyncDependencyInjector.$current.withValue(other) { try await server.resolve(Double.self) }
            }
            seen.append(.now)
            return 0
        }
        _ = try await DependencyInjector.$current.withValue(app) { try await server.resolve(Int.self) }
        #expect(
            seen.values == [
                // Through `r` in the run's task: unbound, the run's bindings stand.
                .face(server.core, outside: app, frames: 2),
                .face(server.core, outside: app, frames: 2),
                .face(server.core, outside: app, frames: 2),
                .face(server.core, outside: inner, frames: 2),
                .face(server.core, outside: app, frames: 1),
            ])
        #expect(times.values == [3, 5, 5, 3])
    }

    /// A completion and a decorator run bound as the factory was: in a creation's task started
    /// in another face's run, and for a transient asked for through `r` in its run's task.
    @Test func completionsAndDecoratorsSeeTheFaceTheirFactorySaw() async throws {
        let app = Self.app(5)
        let s = AsyncDependencyInjector()
        let t = AsyncDependencyInjector()
        await t.register(Clock(time: 9))
        let seen = Collected<Seen>()
        let times = Collected<Int>()
        await s.register(String.self, scope: .singleton) { _ in "s" }
            .initCompleted { _, _ in
                seen.append(.now)
                times.append(Report().clock?.time ?? -1)
            }
        await s.decorate(String.self) { _, value in
            seen.append(.now)
            times.append(Report().clock?.time ?? -1)
            return value + "!"
        }
        await s.register(Double.self) { _ in 1 }
            .initCompleted { _, _ in seen.append(.now) }
        await s.decorate(Double.self) { _, value in
            seen.append(.now)
            return value
        }
        await s.register(Int.self) { r in
            _ = try await r.resolve(Double.self)
            return 0
        }
        await t.register(Int.self) { _ in
            #expect(try await s.resolve(String.self) == "s!")
            _ = try await s.resolve(Int.self)
            return 0
        }
        _ = try await DependencyInjector.$current.withValue(app) { try await t.resolve(Int.self) }
        #expect(
            seen.values == [
                .face(s.core, outside: app, frames: 2), .face(s.core, outside: app, frames: 2),
                // Unbound: the bindings of s's Int run (inside t's) stand.
                .face(s.core, outside: app, frames: 3), .face(s.core, outside: app, frames: 3),
            ])
        #expect(times.values == [5, 5])
    }
}
