import Testing

@testable import Injector

/// Cycles through async factories are reported with their path and never hang.
@Suite struct AsyncCycleTests {
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)  // `.timeLimit` takes a `Duration`
    @Test(.timeLimit(.minutes(1)), arguments: [Scope.transient, .singleton, .weak])
    func aKeyThatNeedsItselfIsACycleOfOne(scope: Scope) async {
        let injector = AsyncDependencyInjector()
        await injector.register(Service.self, scope: scope) { r in try await r.resolve(Service.self) }

        let error = await injectionError { try await injector.resolve(Service.self) }
        #expect(cycleNames(error) == ["Service", "Service"])
    }

    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)  // `.timeLimit` takes a `Duration`
    @Test(.timeLimit(.minutes(1)), arguments: [Scope.transient, .singleton])
    func twoKeysThatNeedEachOtherAcrossAwaitsReportTheExactPath(scope: Scope) async {
        let injector = AsyncDependencyInjector()
        await injector.register(NodeA.self, scope: scope) { r in
            try await Task.sleep(nanoseconds: 1_000_000)
            _ = try await r.resolve(NodeB.self)
            return NodeA()
        }
        await injector.register(NodeB.self, scope: scope) { r in
            try await Task.sleep(nanoseconds: 1_000_000)
            _ = try await r.resolve(NodeA.self)
            return NodeB()
        }

        #expect(
            cycleNames(await injectionError { try await injector.resolve(NodeA.self) }) == ["NodeA", "NodeB", "NodeA"])
        #expect(
            cycleNames(await injectionError { try await injector.resolve(NodeB.self) }) == ["NodeB", "NodeA", "NodeB"])
    }

    /// `Task {}`, `async let` and task groups carry the resolution path, so a factory that
    /// waits for one of them resolving its own key is a cycle, not a hang. (`Task.detached`
    /// carries nothing: the README's Guarantees say what that does.)
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)  // `.timeLimit` takes a `Duration`
    @Test(.timeLimit(.minutes(1)), arguments: [Scope.transient, .singleton, .weak])
    func aFactoryThatAwaitsATaskResolvingItsOwnKeyIsACycle(scope: Scope) async {
        let injector = AsyncDependencyInjector()
        await injector.register(Service.self, scope: scope) { r in
            try await Task { try await r.resolve(Service.self) }.value
        }
        await injector.register(NodeA.self, scope: scope) { r in
            async let service = r.resolve(Service.self)
            _ = try await service
            return NodeA()
        }

        #expect(
            cycleNames(await injectionError { try await injector.resolve(Service.self) }) == ["Service", "Service"])
        #expect(
            cycleNames(await injectionError { try await injector.resolve(NodeA.self) })
                == ["NodeA", "Service", "Service"])
    }

    /// A scoped value's run binds its path for the tasks its factory starts, also when it is
    /// asked for through another run's resolver: a task that resolves the value through the
    /// injector the factory captured, while the factory awaits it, is a cycle. (A run that
    /// bound nothing there, as a transient's asked through a resolver does, left that task
    /// waiting for the very creation that waits for it.)
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)  // `.timeLimit` takes a `Duration`
    @Test(.timeLimit(.minutes(1))) func aScopedFactoryThatAwaitsATaskResolvingItsOwnKeyThroughTheInjectorIsACycle()
        async
    {
        let injector = AsyncDependencyInjector()
        await injector.register(Service.self, scope: .scoped) { r in
            let captured = r.injector
            return try await Task { try await captured.resolve(Service.self) }.value
        }
        await injector.register(NodeA.self, scope: .scoped) { r in
            _ = try await r.resolve(Service.self)
            return NodeA()
        }
        let request = injector.openScope()

        #expect(
            cycleNames(await injectionError { try await request.resolve(NodeA.self) })
                == ["NodeA", "Service", "Service"])
        #expect(cycleNames(await injectionError { try await request.resolve(Service.self) }) == ["Service", "Service"])
        try? await request.close()
    }

    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)  // `.timeLimit` takes a `Duration`
    @Test(.timeLimit(.minutes(1))) func threeKeysOfMixedScopesReportTheExactPath() async {
        let injector = AsyncDependencyInjector()
        await injector.register(NodeA.self) { r in
            _ = try await r.resolve(NodeB.self)
            return NodeA()
        }
        await injector.register(NodeB.self, scope: .singleton) { r in
            _ = try await r.resolve(NodeC.self)
            return NodeB()
        }
        await injector.register(NodeC.self) { r in
            _ = try await r.resolve(NodeA.self)
            return NodeC()
        }

        let error = await injectionError { try await injector.resolve(NodeA.self) }
        #expect(cycleNames(error) == ["NodeA", "NodeB", "NodeC", "NodeA"])
        #expect(
            error.map(String.init(describing:)) == """
                Injector found a circular dependency: InjectorTests.NodeA → InjectorTests.NodeB → \
                InjectorTests.NodeC → InjectorTests.NodeA.
                To fix: break the cycle: let one of these types resolve the next one later \
                (with @LazyInject, or by resolving inside a method) instead of in its factory.
                """
        )
    }

    /// Two tasks start at the two ends of a cycle at once: one creates `A`, which waits for `B`;
    /// the other creates `B`, which waits for `A`. Neither task's own path shows the cycle.
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)  // `.timeLimit` takes a `Duration`
    @Test(.timeLimit(.minutes(1))) func aCycleClosedByTwoTasksCreatingSingletonsAtOnceIsReportedNotHung() async {
        for _ in 0..<20 {
            let aStarted = AsyncGate()
            let bStarted = AsyncGate()
            let aRuns = Counter()
            let bRuns = Counter()
            let injector = AsyncDependencyInjector()
            await injector.register(NodeA.self, scope: .singleton) { r in
                if aRuns.increment() == 1 {
                    aStarted.open()
                    await bStarted.wait()
                }
                _ = try await r.resolve(NodeB.self)
                return NodeA()
            }
            await injector.register(NodeB.self, scope: .singleton) { r in
                if bRuns.increment() == 1 {
                    bStarted.open()
                    await aStarted.wait()
                }
                _ = try await r.resolve(NodeA.self)
                return NodeB()
            }

            async let fromA = injectionError { try await injector.resolve(NodeA.self) }
            async let fromB = injectionError { try await injector.resolve(NodeB.self) }
            for names in [cycleNames(await fromA), cycleNames(await fromB)] {
                #expect(names?.count == 3)
                #expect(names?.first == names?.last)
                #expect(Set(names ?? []) == ["NodeA", "NodeB"])
            }
        }
    }

    /// The same across a ring of singletons deeper than the frames answer by walking (32): two
    /// tasks start at opposite points of "0" → "1" → … → "79" → "0", each creating half the ring,
    /// and the one whose wait closes the cycle finds it through the waits of the other's half.
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)  // `.timeLimit` takes a `Duration`
    @Test(.timeLimit(.minutes(1))) func aDeepCycleClosedByTwoTasksIsReportedWithItsWholePath() async {
        let depth = 80
        for _ in 0..<10 {
            let starts = [0, depth / 2]
            let started = [AsyncGate(), AsyncGate()]
            let runs = [Counter(), Counter()]
            let injector = AsyncDependencyInjector()
            for level in 0..<depth {
                let start = starts.firstIndex(of: level)
                await injector.register(Int.self, name: "\(level)", scope: .singleton) { r in
                    // Each start waits until the other has begun, so both halves are in creation.
                    if let start, runs[start].increment() == 1 {
                        started[start].open()
                        await started[1 - start].wait()
                    }
                    return try await r.resolve(Int.self, name: "\((level + 1) % depth)")
                }
            }

            async let fromStart = injectionError { try await injector.resolve(Int.self, name: "0") }
            async let fromMiddle = injectionError { try await injector.resolve(Int.self, name: "\(depth / 2)") }
            for error in [await fromStart, await fromMiddle] {
                guard case .circularDependency(let path)? = error else {
                    Issue.record("expected circularDependency, got \(String(describing: error))")
                    continue
                }
                let names = path.map { $0.name ?? "" }
                #expect(names.count == depth + 1)
                #expect(names.first == names.last)
                #expect(Set(names) == Set((0..<depth).map { "\($0)" }))
            }
        }
    }

    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)  // `.timeLimit` takes a `Duration`
    @Test(.timeLimit(.minutes(1))) func aCycleIsNotCachedAndTheGraphWorksOnceFixed() async throws {
        let injector = AsyncDependencyInjector()
        await injector.register(NodeA.self, scope: .singleton) { r in
            _ = try await r.resolve(NodeB.self)
            return NodeA()
        }
        await injector.register(NodeB.self, scope: .singleton) { r in
            _ = try await r.resolve(NodeA.self)
            return NodeB()
        }
        #expect(cycleNames(await injectionError { try await injector.resolve(NodeA.self) }) != nil)

        await injector.register(NodeB.self, scope: .singleton) { _ in NodeB() }
        _ = try await injector.resolve(NodeA.self)
    }

    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)  // `.timeLimit` takes a `Duration`
    @Test(.timeLimit(.minutes(1))) func aChildOverrideThatDecoratesItsParentIsNoCycle() async throws {
        let parent = AsyncDependencyInjector()
        await parent.register(String.self) { _ in "base" }
        let child = parent.child()
        await child.register(String.self) { _ in try await parent.resolve(String.self) + "+decorated" }

        #expect(try await child.resolve(String.self) == "base+decorated")
    }

    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)  // `.timeLimit` takes a `Duration`
    @Test(.timeLimit(.minutes(1))) func aDeepAcyclicChainResolves() async throws {
        let injector = AsyncDependencyInjector()
        let depth = 300
        for level in 0..<depth {
            let scope: Scope = level.isMultiple(of: 2) ? .transient : .singleton
            await injector.register(Int.self, name: "\(level)", scope: scope) { r in
                level == depth - 1 ? level : try await r.resolve(Int.self, name: "\(level + 1)")
            }
        }
        #expect(try await injector.resolve(Int.self, name: "0") == depth - 1)
    }

    /// A task that a factory started, resolving the same key later (a poller making a fresh
    /// value, say), is no resolution in progress: it gets a value, not a cycle.
    @Test(arguments: Face.allCases)
    func aTaskAFactoryStartedMayResolveThatKeyLater(face: Face) async throws {
        let injector = face.makeInjector()
        let (gate, open) = AsyncStream<Void>.makeStream()
        let (outcomes, report) = AsyncStream<String>.makeStream()
        let made = Counter()
        await injector.register(Service.self) {
            if made.increment() == 1 {
                Task {
                    for await _ in gate {}
                    do {
                        report.yield(try await injector.resolve(Service.self).label)
                    } catch {
                        report.yield("\(error)")
                    }
                }
            }
            return Service(label: "made \(made.value)")
        }
        #expect(try await injector.resolve(Service.self).label == "made 1")
        open.finish()
        var iterator = outcomes.makeAsyncIterator()
        // The actor face's task copies the resolve's task-local frames: they must show that
        // the run that started it has ended.
        #expect(await iterator.next() == "made 2")
    }

    /// A cycle that passes through a synchronous factory (the actor face's singleton `A` needs
    /// the sync face's `B`, which needs `A`, still being created) is a cycle, not "its factory
    /// is async": the sync face cannot await `A` because `A` is waiting for it.
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)  // `.timeLimit` takes a `Duration`
    @Test(.timeLimit(.minutes(1)), arguments: [Scope.transient, .singleton])
    func aCycleThroughTheSyncFaceIsReportedAsACycle(scope: Scope) async {
        let injector = AsyncDependencyInjector()
        await injector.register(NodeA.self, scope: scope) { r in
            await Task.yield()
            _ = try await r.resolve(NodeB.self)
            return NodeA()
        }
        injector.synchronous.register(NodeB.self) { r in
            _ = try r.resolve(NodeA.self)
            return NodeB()
        }
        let error = await #expect(throws: InjectionError.self) { try await injector.resolve(NodeA.self) }
        guard case .circularDependency(let path)? = error else {
            Issue.record("expected a cycle, got \(String(describing: error))")
            return
        }
        #expect(path == [DependencyKey(NodeA.self), DependencyKey(NodeB.self), DependencyKey(NodeA.self)])
    }

    /// A child's override of `A` running is not the parent's `A`: the parent's singleton that
    /// needs the parent's async `A` is told to await it, not that it is in a cycle.
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)  // `.timeLimit` takes a `Duration`
    @Test(.timeLimit(.minutes(1))) func anOverrideOfTheSameKeyRunningIsNoCycle() async {
        let parent = AsyncDependencyInjector()
        await parent.register(NodeA.self) { _ in
            await Task.yield()
            return NodeA()
        }
        parent.synchronous.register(NodeB.self, scope: .singleton) { r in
            _ = try r.resolve(NodeA.self)
            return NodeB()
        }
        let child = parent.child()
        await child.register(NodeA.self) { r in
            await Task.yield()
            _ = try await r.resolve(NodeB.self)
            return NodeA()
        }
        let error = await #expect(throws: InjectionError.self) { try await child.resolve(NodeA.self) }
        guard case .factoryFailed(let key, _, let underlying)? = error else {
            Issue.record("expected the parent's A to be awaited, got \(String(describing: error))")
            return
        }
        #expect(key == DependencyKey(NodeA.self))
        #expect(underlying is RequiresAwait)
    }
}
