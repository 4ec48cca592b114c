import Dispatch
import Injector

/// Runs `body` in a task and blocks the calling thread until it is done. The task hop costs
/// once per batch; each batch does `repeats` times the work the harness asks for, so that the
/// hop is spread over many operations.
private func runAsync(_ body: @escaping @Sendable () async -> Void) {
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
                "await resolve", baseline: syncName, target: Target(reference: syncName, limit: 3.0),
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
            .measured("hook on", baseline: off) { n in
                for _ in 0..<n { blackHole(try? observed.resolve(Logger.self)) }
            },
        ]
    )
}
