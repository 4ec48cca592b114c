import Testing

@testable import Injector

/// One root for both faces: `AsyncDependencyInjector.shared` is the actor face of
/// `DependencyInjector.shared`, so what is registered through either is seen by the other.
@Suite struct OneRootTests {
    // Types of this file's own, so that registering them in the shared root touches no other test.
    private struct RegisteredOnTheActorFace: Sendable { let id: Int }
    private struct RegisteredOnTheSyncFace: Sendable { let id: Int }
    private struct MadeAsynchronously: Sendable {}

    @Test func theSharedFacesAreOneInjector() {
        #expect(AsyncDependencyInjector.shared.synchronous === DependencyInjector.shared)
        #expect(AsyncDependencyInjector.shared.parent == nil)
    }

    @Test func aRegistrationThroughEitherSharedFaceIsSeenByTheOther() async throws {
        await AsyncDependencyInjector.shared.register(RegisteredOnTheActorFace(id: 1))
        DependencyInjector.shared.register(RegisteredOnTheSyncFace.self) { _ in RegisteredOnTheSyncFace(id: 2) }
        defer {
            DependencyInjector.shared.unregister(RegisteredOnTheActorFace.self)
            DependencyInjector.shared.unregister(RegisteredOnTheSyncFace.self)
        }

        #expect(try DependencyInjector.shared.resolve(RegisteredOnTheActorFace.self).id == 1)
        #expect(try await AsyncDependencyInjector.shared.resolve(RegisteredOnTheSyncFace.self).id == 2)
    }

    @Test func anAsyncFactoryInTheSharedRootTellsTheSyncFaceToAwait() async throws {
        await AsyncDependencyInjector.shared.register(MadeAsynchronously.self) { _ in
            await Task.yield()
            return MadeAsynchronously()
        }
        defer { DependencyInjector.shared.unregister(MadeAsynchronously.self) }

        _ = try await AsyncDependencyInjector.shared.resolve(MadeAsynchronously.self)
        do throws(InjectionError) {
            _ = try DependencyInjector.shared.resolve(MadeAsynchronously.self)
            Issue.record("a synchronous resolve of an async factory should throw")
        } catch {
            guard case .factoryFailed(let key, _, let underlying) = error else {
                Issue.record("expected factoryFailed, got \(error)")
                return
            }
            #expect(key == DependencyKey(MadeAsynchronously.self))
            #expect(
                "\(underlying)".contains(
                    "the factory is async, and a synchronous resolve (an @Inject property, or a resolve without await) "
                        + "cannot run it: resolve it with `try await` from the AsyncDependencyInjector"))
        }
    }
}
