import Dispatch
import Injector

/// Runs `body` in a task and blocks the calling thread until it is done. The task hop costs
/// once per batch; each batch does `repeats` times the work the harness asks for, so that the
/// hop is spread over many operations.
func runAsync(_ body: @escaping @Sendable () async -> Void) {
    let done = DispatchSemaphore(value: 0)
    Task.detached {
        await body()
        done.signal()
    }
    done.wait()
}

/// `await resolve` of a ready singleton on the actor, against the sync injector's resolve;
/// and eight concurrent tasks resolving it, against eight tasks on the sync injector.
func asyncReadySingleton() -> Scenario {
    let sync = DependencyInjector()
    sync.register(Logger.self, scope: .singleton) { _ in Logger() }
    _ = try? sync.resolve(Logger.self)
    let actor = AsyncDependencyInjector()
    runAsync {
        await actor.register(Logger.self, scope: .singleton) { _ in Logger() }
        _ = try? await actor.resolve(Logger.self)
    }
    let repeats = 10_000
    let syncName = "DependencyInjector, from a task"
    let syncEight = "DependencyInjector, 8 tasks"

    return Scenario(
        name: "AsyncDependencyInjector, ready singleton",
        cases: [
            .measured(syncName, operations: repeats, clock: .wall) { n in
                runAsync { for _ in 0..<(n * repeats) { blackHole(try? sync.resolve(Logger.self)) } }
            },
            .measured(
                "await resolve", baseline: syncName, target: Target(reference: syncName, limit: 2.0),
                operations: repeats, clock: .wall
            ) { n in
                runAsync { for _ in 0..<(n * repeats) { blackHole(try? await actor.resolve(Logger.self)) } }
            },
            .measured(syncEight, operations: 8 * repeats, clock: .wall) { n in
                runAsync {
                    await withTaskGroup(of: Void.self) { group in
                        for _ in 0..<8 {
                            group.addTask { for _ in 0..<(n * repeats) { blackHole(try? sync.resolve(Logger.self)) } }
                        }
                    }
                }
            },
            .measured("await resolve, 8 tasks", baseline: syncEight, operations: 8 * repeats, clock: .wall) { n in
                runAsync {
                    await withTaskGroup(of: Void.self) { group in
                        for _ in 0..<8 {
                            group.addTask {
                                for _ in 0..<(n * repeats) { blackHole(try? await actor.resolve(Logger.self)) }
                            }
                        }
                    }
                }
            },
        ]
    )
}

/// The actor's factory paths against the sync injector's, both from a task: a transient with
/// three transient dependencies, and the first resolve of a singleton (a new injector each
/// time: register, then resolve, which runs the factory once).
func asyncFactories() -> Scenario {
    let sync = DependencyInjector()
    sync.register(Parser.self) { _ in Parser() }
    sync.register(Formatter.self) { _ in Formatter() }
    sync.register(Validator.self) { _ in Validator() }
    sync.register(Importer.self) { r in
        try Importer(parser: r.resolve(), formatter: r.resolve(), validator: r.resolve())
    }
    let actor = AsyncDependencyInjector()
    runAsync {
        await actor.register(Parser.self) { _ in Parser() }
        await actor.register(Formatter.self) { _ in Formatter() }
        await actor.register(Validator.self) { _ in Validator() }
        await actor.register(Importer.self) { r in
            try await Importer(parser: r.resolve(), formatter: r.resolve(), validator: r.resolve())
        }
    }
    let repeats = 1_000
    let syncTransient = "DependencyInjector, transient with 3 deps"
    let syncFirst = "DependencyInjector, first resolve of a singleton"

    return Scenario(
        name: "AsyncDependencyInjector, factories",
        cases: [
            .measured(syncTransient, operations: repeats, clock: .wall) { n in
                runAsync { for _ in 0..<(n * repeats) { blackHole(try? sync.resolve(Importer.self)) } }
            },
            .measured(
                "await resolve, transient with 3 deps", baseline: syncTransient,
                target: Target(reference: syncTransient, limit: 2.0), operations: repeats, clock: .wall
            ) { n in
                runAsync { for _ in 0..<(n * repeats) { blackHole(try? await actor.resolve(Importer.self)) } }
            },
            .measured(syncFirst, operations: repeats, clock: .wall) { n in
                runAsync {
                    for _ in 0..<(n * repeats) {
                        let injector = DependencyInjector()
                        injector.register(Logger.self, scope: .singleton) { _ in Logger() }
                        blackHole(try? injector.resolve(Logger.self))
                    }
                }
            },
            // Decided: 2× (1.5× waits for `withTaskCancellationShield` in the toolchain; the
            // creation's task shields it from the requester's cancellation today).
            .measured(
                "await resolve, first resolve of a singleton", baseline: syncFirst,
                target: Target(reference: syncFirst, limit: 2.0), operations: repeats, clock: .wall
            ) { n in
                runAsync {
                    for _ in 0..<(n * repeats) {
                        let injector = AsyncDependencyInjector()
                        await injector.register(Logger.self, scope: .singleton) { _ in Logger() }
                        blackHole(try? await injector.resolve(Logger.self))
                    }
                }
            },
        ]
    )
}

/// A ready singleton's resolve with the observation hook off (the default) and on.
func observationHook() -> Scenario {
    let quiet = DependencyInjector()
    quiet.register(Logger.self, scope: .singleton) { _ in Logger() }
    _ = try? quiet.resolve(Logger.self)
    let observed = DependencyInjector()
    observed.register(Logger.self, scope: .singleton) { _ in Logger() }
    _ = try? observed.resolve(Logger.self)
    observed.observe { event in blackHole(event.durationNanoseconds) }
    let off = "hook off"

    return Scenario(
        name: "observation hook",
        cases: [
            .measured(off) { n in
                for _ in 0..<n { blackHole(try? quiet.resolve(Logger.self)) }
            },
            // Decided (issue 43): 2× is not required of a hook that times every resolve.
            .measured("hook on", baseline: off, target: Target(reference: off, limit: 3.5)) { n in
                for _ in 0..<n { blackHole(try? observed.resolve(Logger.self)) }
            },
        ]
    )
}
