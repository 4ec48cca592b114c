import Injector
import TestSupport
import Testing

/// What the actor face hands its factories, decorators and hooks: an `AsyncResolver` of the
/// run, which resolves as the injector does and carries the run's path.
@Suite struct AsyncResolverTests {
    @Test func aResolverResolvesNamesArgumentsKeyPathsAndTheSynchronousRegistry() async throws {
        let injector = AsyncDependencyInjector()
        injector.synchronous.register(Int.self) { _ in 7 }
        await injector.register(String.self, name: "greeting") { _ in "hello" }
        await injector.register(SignedInUser.self) { (_, id: Int) in SignedInUser(id: id) }
        await injector.register(Summary.self) { r in
            try await Summary(
                greeting: r.resolve(name: "greeting"),
                session: r.resolve(SignedInUser.self, arguments: 42),
                number: r.synchronous.resolve(),
                isSameInjector: r.injector === injector)
        }

        let summary = try await injector.resolve(Summary.self)

        #expect(summary == Summary(greeting: "hello", session: SignedInUser(id: 42), number: 7, isSameInjector: true))
    }

    /// A factory that resolves through an injector it captured, inside a transient that a
    /// resolver asked for, sees the whole path: the cycle names every key.
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)  // `.timeLimit` takes a `Duration`
    @Test(.timeLimit(.minutes(1))) func aCapturedInjectorInsideAResolvedTransientReportsTheWholePath() async {
        let injector = AsyncDependencyInjector()
        await register(NodeA(), needing: NodeB.self, in: injector)
        await register(NodeB(), needing: NodeC.self, in: injector, through: .capturedInjector)
        await register(NodeC(), needing: NodeA.self, in: injector)

        let error = await injectionError { try await injector.resolve(NodeA.self) }

        #expect(cycleNames(error) == ["NodeA", "NodeB", "NodeC", "NodeA"])
    }

    /// The same through a chain deeper than one hop, with the captured resolve made after the
    /// factory awaited (so on whatever thread the task resumed on).
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)  // `.timeLimit` takes a `Duration`
    @Test(.timeLimit(.minutes(1))) func aCapturedResolveAfterASuspensionFindsTheRunItIsIn() async {
        let injector = AsyncDependencyInjector()
        await register(NodeA(), needing: NodeB.self, in: injector)
        await register(NodeB(), needing: NodeC.self, in: injector)
        await register(NodeC(), needing: NodeB.self, in: injector, through: .capturedInjectorAfterAYield)

        let error = await injectionError { try await injector.resolve(NodeA.self) }

        #expect(cycleNames(error) == ["NodeA", "NodeB", "NodeC", "NodeB"])
    }

    /// A decorator and an `initCompleted` hook get the resolver of the run they finish: what
    /// they resolve is part of its path.
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)  // `.timeLimit` takes a `Duration`
    @Test(.timeLimit(.minutes(1))) func decoratorsAndHooksResolveInTheRunTheyFinish() async {
        let injector = AsyncDependencyInjector()
        await register(NodeA(), needing: NodeB.self, in: injector)
        await injector.register(NodeB.self) { _ in NodeB() }
        await injector.decorate(NodeB.self) { r, inner in
            _ = try await r.resolve(NodeC.self)
            return inner
        }
        await injector.register(NodeC.self) { _ in NodeC() }
            .initCompleted { r, _ in _ = try await r.resolve(NodeA.self) }

        let error = await injectionError { try await injector.resolve(NodeA.self) }

        #expect(cycleNames(error) == ["NodeA", "NodeB", "NodeC", "NodeA"])
    }

    /// `r` carries the path into a detached task too: a singleton's factory that awaits one
    /// resolving that singleton through `r` gets a cycle, not a wait for its own creation.
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)  // `.timeLimit` takes a `Duration`
    @Test(.timeLimit(.minutes(1))) func aDetachedTaskResolvingThroughTheResolverSeesTheCycle() async {
        let injector = AsyncDependencyInjector()
        await injector.register(Service.self, scope: .singleton) { r in
            try await Task.detached { try await r.resolve(Service.self) }.value
        }

        let error = await injectionError { try await injector.resolve(Service.self) }

        #expect(cycleNames(error) == ["Service", "Service"])
    }

    /// A resolver of an outer run, used inside a deeper transient, runs its value after the
    /// outer run's path: a captured injector inside that value sees that path, not the deeper
    /// transient's it was asked from.
    @Test func anOuterResolverUsedDeeperRunsAfterItsOwnPath() async throws {
        let injector = AsyncDependencyInjector()
        let outer = Collected<AsyncResolver>()
        let step = { (name: String) in DependencyKey(Int.self, name: name) }
        await injector.register(Int.self, name: "outer") { r in
            outer.append(r)
            return try await r.resolve(name: "a")
        }
        await injector.register(Int.self, name: "a") { r in try await r.resolve(name: "b") }
        await injector.register(Int.self, name: "b") { r in try await r.resolve(name: "c") }
        await injector.register(Int.self, name: "c") { _ in
            guard let outer = outer.values.first else { return 0 }
            return try await outer.resolve(Int.self, name: "cached", arguments: 1)
        }
        await injector.register(Int.self, name: "cached", caching: .strong) { (_, _: Int) in
            try await injector.resolve(Int.self, name: "missing")  // captured, not `r`
        }

        let error = await injectionError { try await injector.resolve(Int.self, name: "outer") }

        guard case .notRegistered(_, let path, _)? = error else {
            Issue.record("expected notRegistered, got \(String(describing: error))")
            return
        }
        #expect(path == ["outer", "cached", "missing"].map(step))
    }

    /// A resolver kept past its run (by a task its factory left running) still resolves: the
    /// resolve is one of its own, as through the injector.
    @Test func aResolverKeptPastItsRunStillResolves() async throws {
        let injector = AsyncDependencyInjector()
        let later = Collected<Task<NodeC, any Error>>()
        await injector.register(NodeC.self) { _ in NodeC() }
        await injector.register(NodeA.self) { r in
            later.append(Task { try await r.resolve(NodeC.self) })
            return NodeA()
        }

        _ = try await injector.resolve(NodeA.self)
        let task = try #require(later.values.first)

        _ = try await task.value
    }
}

/// How a factory registered by `register(_:needing:in:through:)` resolves what it needs.
private enum Route {
    case resolver
    case capturedInjector
    case capturedInjectorAfterAYield
}

/// Registers `value`'s type, a transient whose factory resolves `needed` (and drops it) before
/// it returns `value`.
private func register<T: Sendable, Needed: Sendable>(
    _ value: T,
    needing needed: Needed.Type,
    in injector: AsyncDependencyInjector,
    through route: Route = .resolver
) async {
    await injector.register(T.self) { r in
        switch route {
        case .resolver:
            _ = try await r.resolve(needed)
        case .capturedInjector:
            _ = try await injector.resolve(needed)
        case .capturedInjectorAfterAYield:
            await Task.yield()
            _ = try await injector.resolve(needed)
        }
        return value
    }
}

private struct SignedInUser: Equatable, Sendable {
    let id: Int
}

private struct Summary: Equatable, Sendable {
    let greeting: String
    let session: SignedInUser
    let number: Int
    let isSameInjector: Bool
}
