import Injector
import TestSupport
import Testing

/// One installation registering a key from several tasks at once: what it replaced is noted
/// in the same locked step as the replacement, so a failed installation puts back what was
/// there before it, untouched, however the tasks interleave.
@Suite struct InstallationStressTests {
    final class Pool: Sendable {
        let label: String
        init(_ label: String) { self.label = label }
    }

    /// Registers `Pool` from `tasks` child tasks at once, then fails.
    struct RacingModule: AsyncDependencyModule {
        let tasks: Int
        func register(in injector: AsyncDependencyInjector) async throws(InjectionError) {
            await withTaskGroup(of: Void.self) { group in
                for task in 0..<tasks {
                    group.addTask {
                        await injector.register(Pool.self, scope: .singleton) { _ in Pool("task \(task)") }
                    }
                }
            }
            throw .unknownScope(.named("abandoned"))
        }
    }

    @Test func aFailedInstallationThatRegisteredAKeyFromManyTasksPutsBackTheValueBeforeIt() async throws {
        for _ in 0..<100 {
            let closed = Counter()
            let app = AsyncDependencyInjector()
            await app.register(Pool.self, scope: .singleton) { _ in Pool("app") }.teardown { _ in closed.increment() }
            let before = try await app.resolve(Pool.self)
            await #expect(throws: InjectionError.self) { try await app.install(RacingModule(tasks: 4)) }
            #expect(try await app.resolve(Pool.self) === before)
            #expect(closed.value == 0)
        }
    }
}
