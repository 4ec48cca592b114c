import Injector
import TestSupport
import Testing

/// The actor face's captive check: a value kept past opened scopes that asks for a `.scoped`
/// one throws `captiveDependency`, however its factory asks (a task it starts, through its
/// resolver or a captured injector, `async let`, a resolver kept from an ended resolve).
@Suite struct ActorFaceCaptiveTests {
    final class Tx: Sendable { init() {} }
    final class Holder: Sendable {
        let tx: Tx?
        init(_ tx: Tx?) { self.tx = tx }
    }
    final class Flow: Sendable { init() {} }

    private func captive(_ body: () async throws -> Holder) async -> Bool {
        do {
            _ = try await body()
            return false
        } catch let error as InjectionError {
            if case .captiveDependency = error { return true }
            Issue.record("unexpected \(error)")
            return false
        } catch {
            Issue.record("unexpected \(error)")
            return false
        }
    }

    private func app() async -> AsyncDependencyInjector {
        let app = AsyncDependencyInjector()
        await app.register(Tx.self, scope: .scoped) { _ in Tx() }
        return app
    }

    @Test func taskThroughCapturedInjector() async {
        let app = await app()
        let request = app.openScope()
        await app.register(Holder.self, scope: .singleton) { _ in
            Holder(try await Task { try await request.resolve(Tx.self) }.value)
        }
        #expect(await captive { try await request.resolve(Holder.self) })
        try? await request.close()
    }

    @Test func taskThroughResolver() async {
        let app = await app()
        let request = app.openScope()
        await app.register(Holder.self, scope: .singleton) { r in
            Holder(try await Task { try await r.resolve(Tx.self) }.value)
        }
        #expect(await captive { try await request.resolve(Holder.self) })
        try? await request.close()
    }

    @Test func asyncLetThroughCurrent() async {
        let app = await app()
        let request = app.openScope()
        await app.register(Holder.self, scope: .singleton) { _ in
            async let tx = AsyncDependencyInjector.current.resolve(Tx.self)
            return Holder(try await tx)
        }
        #expect(await captive { try await request.resolve(Holder.self) })
        try? await request.close()
    }

    @Test func cachingFactory() async {
        let app = await app()
        let request = app.openScope()
        await app.register(Holder.self, caching: .strong) { (r, id: Int) in Holder(try await r.resolve(Tx.self)) }
        #expect(await captive { try await request.resolve(Holder.self, arguments: 1) })
        try? await request.close()
    }

    /// A resolver kept from a resolve that has ended, used inside a singleton's factory: such a
    /// resolve is one of its own, as one through the injector would be, which is captive in the
    /// singleton's run. (Catches: the check read only the resolver's frames, which run nothing.)
    @Test func escapedResolverInsideASingletonsFactory() async throws {
        let app = await app()
        let box = Collected<AsyncResolver>()
        await app.register(
            Flow.self, scope: nil,
            factory: { (r: AsyncResolver) async throws -> Flow in
                box.append(r)
                return Flow()
            })
        let request = app.openScope()
        _ = try await request.resolve(Flow.self)  // ended: its resolver escaped into `box`
        try #require(box.values.count == 1)
        await app.register(Holder.self, scope: .singleton) { _ in
            Holder(try await box.values[0].resolve(Tx.self))
        }
        // The same through the captured injector is captive:
        await app.register(Holder.self, name: "injector", scope: .singleton) { _ in
            Holder(try await request.resolve(Tx.self))
        }
        #expect(await captive { try await request.resolve(Holder.self, name: "injector") })
        #expect(await captive { try await request.resolve(Holder.self) })
        try? await request.close()
    }
}
