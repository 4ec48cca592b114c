import Testing

@testable import Injector

/// One root for both faces: `AsyncDependencyInjector.shared` is the actor face of
/// `DependencyInjector.shared`, so what is registered through either is seen by the other.
/// Registrations go to a child of the root, faced both ways as the root is: the root itself is
/// every parallel test's parent, and a registration there would show in their messages.
@Suite struct OneRootTests {
    private struct RegisteredOnTheActorFace: Sendable { let id: Int }
    private struct RegisteredOnTheSyncFace: Sendable { let id: Int }
    private struct MadeAsynchronously: Sendable {}

    /// A child of the shared root, and its actor face.
    private func bothFaces() -> (DependencyInjector, AsyncDependencyInjector) {
        let child = DependencyInjector.shared.child()
        return (child, AsyncDependencyInjector.shared.face(ofChild: child))
    }

    @Test func theSharedFacesAreOneInjector() {
        #expect(AsyncDependencyInjector.shared.synchronous === DependencyInjector.shared)
        #expect(AsyncDependencyInjector.shared.parent == nil)
    }

    @Test func aRegistrationThroughEitherFaceIsSeenByTheOther() async throws {
        let (sync, actor) = bothFaces()
        await actor.register(RegisteredOnTheActorFace(id: 1))
        sync.register(RegisteredOnTheSyncFace.self) { _ in RegisteredOnTheSyncFace(id: 2) }

        #expect(try sync.resolve(RegisteredOnTheActorFace.self).id == 1)
        #expect(try await actor.resolve(RegisteredOnTheSyncFace.self).id == 2)
    }

    @Test func anAsyncFactoryTellsTheSyncFaceToAwait() async throws {
        let (sync, actor) = bothFaces()
        await actor.register(MadeAsynchronously.self) { _ in
            await Task.yield()
            return MadeAsynchronously()
        }

        _ = try await actor.resolve(MadeAsynchronously.self)
        do throws(InjectionError) {
            _ = try sync.resolve(MadeAsynchronously.self)
            Issue.record("a synchronous resolve of an async factory should throw")
        } catch {
            guard case .factoryFailed(let key, _, let underlying) = error else {
                Issue.record("expected factoryFailed, got \(error)")
                return
            }
            #expect(key == DependencyKey(MadeAsynchronously.self))
            #expect(
                "\(underlying)".contains(
                    "its factory is async, and a synchronous resolve (an @Inject property, or a resolve without await) "
                        + "cannot run it: resolve it with `try await` from the AsyncDependencyInjector"))
            // The library's refusal, said as one: not "its factory threw", nor a fix of the factory.
            let lines = "\(error)".split(separator: "\n").map(String.init)
            #expect(
                lines.first?.hasSuffix(
                    "MadeAsynchronously (private): its factory is async, and a synchronous resolve "
                        + "(an @Inject property, or a resolve without await) cannot run it.") == true)
            #expect(
                lines.last?.hasPrefix("To fix: resolve it with `try await` from the AsyncDependencyInjector") == true)
        }
    }

    /// Where both faces' `current` are one injector, either face's `withOverrides` is one test
    /// scope for both: code in the operation that reads the other face sees the override.
    @Test func eitherFacesWithOverridesScopesBothFacesOfOneRoot() async throws {
        let (sync, actor) = bothFaces()
        sync.register(RegisteredOnTheSyncFace(id: 1))
        let seen = try await DependencyInjector.$current.withValue(sync) {
            try await AsyncDependencyInjector.$current.withValue(actor) { () async throws -> [Int] in
                let throughTheSyncFace = try await actor.withOverrides({
                    await $0.register(RegisteredOnTheSyncFace(id: 2))
                }) {
                    try DependencyInjector.current.resolve(RegisteredOnTheSyncFace.self).id
                }
                let throughTheActorFace = try await sync.withOverrides({ $0.register(RegisteredOnTheSyncFace(id: 3)) })
                {
                    try await AsyncDependencyInjector.current.resolve(RegisteredOnTheSyncFace.self).id
                }
                let synchronously = try sync.withOverrides({ $0.register(RegisteredOnTheSyncFace(id: 4)) }) {
                    try AsyncDependencyInjector.current.synchronous.resolve(RegisteredOnTheSyncFace.self).id
                }
                return [throughTheSyncFace, throughTheActorFace, synchronously]
            }
        }
        #expect(seen == [2, 3, 4])
    }

    /// Where the faces' `current` are two injectors, each face's `withOverrides` leaves the other's.
    @Test func withOverridesLeavesTheOtherFaceOfAnotherInjector() async {
        let (_, actor) = bothFaces()
        let other = DependencyInjector.shared.child()
        let syncCurrent = await DependencyInjector.$current.withValue(other) {
            await actor.withOverrides({ _ in }) { DependencyInjector.current }
        }
        let actorCurrent = AsyncDependencyInjector.$current.withValue(actor) {
            other.withOverrides({ _ in }) { AsyncDependencyInjector.current }
        }
        #expect(syncCurrent === other)
        #expect(actorCurrent === actor)
    }

    /// A forward (`implements`) of the actor face's singleton reads, on the sync face, the value
    /// the actor face has made, as the singleton's own key does; before that, it says to await.
    @Test func theSyncFaceReadsAForwardOfTheActorFacesReadySingleton() async throws {
        let (sync, actor) = bothFaces()
        await actor.register(Service.self, scope: .singleton) { _ in
            await Task.yield()
            return Service()
        }
        .implements((any Servicing).self)
        #expect(throws: InjectionError.self) { try sync.resolve((any Servicing).self) }  // not made yet

        let service = try await actor.resolve(Service.self)
        #expect(try sync.resolve((any Servicing).self) === service)
        let holder = DependencyInjector.$current.withValue(sync) { ServicingHolder() }
        #expect(holder.service === service)  // an `@Inject` of the forwarded key
    }
}

extension OneRootTests {
    /// The sync face's read of such a forward fails as the actor face's does: a type the value
    /// does not have, a target no longer registered; and `verify()` leaves it to the actor face.
    @Test func aForwardOfTheActorFacesSingletonFailsOnTheSyncFaceAsOnTheActorFace() async throws {
        let (sync, actor) = bothFaces()
        await actor.register(Service.self, scope: .singleton) { _ in
            await Task.yield()
            return Service()
        }
        .implements((any Servicing).self, (any NotServicing).self)
        try sync.verify()

        _ = try await actor.resolve(Service.self)
        let notImplemented = #expect(throws: InjectionError.self) { try sync.resolve((any NotServicing).self) }
        guard case .notImplemented(let key, _, let implementation)? = notImplemented else {
            Issue.record("expected notImplemented, got \(String(describing: notImplemented))")
            return
        }
        #expect(key == DependencyKey((any NotServicing).self) && implementation == DependencyKey(Service.self))

        sync.unregister(Service.self)
        let missing = #expect(throws: InjectionError.self) { try sync.resolve((any Servicing).self) }
        guard case .notRegistered(let target, _, _)? = missing else {
            Issue.record("expected notRegistered, got \(String(describing: missing))")
            return
        }
        #expect(target == DependencyKey(Service.self))
    }
}

extension OneRootTests {
    /// The sync face's `withOverrides`, scoping both faces, awaits the async teardowns of what the
    /// actor face made in the scope before it returns.
    @Test func theSyncFacesWithOverridesAwaitsTheActorFacesTeardowns() async throws {
        let (sync, actor) = bothFaces()
        let closed = Collected<String>()
        await actor.register(Service.self, scope: .singleton) { _ in Service() }
            .teardown { _ in
                await Task.yield()
                closed.append("service")
            }
        try await AsyncDependencyInjector.$current.withValue(actor) {
            try await sync.withOverrides({ _ in }) {
                _ = try await AsyncDependencyInjector.current.resolve(Service.self)  // the scope's own copy
            }
        }
        #expect(closed.values == ["service"])
    }
}

private protocol NotServicing: Sendable {}

private protocol Servicing: AnyObject, Sendable {}
extension Service: Servicing {}

private final class ServicingHolder {
    @Inject var service: any Servicing
}
