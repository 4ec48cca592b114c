import Injector
import TestSupport
import Testing

/// A kept value (a singleton, a scoped value) is one value whichever way a resolve reaches it:
/// the published table or the walk, either face, from a `.graph` value's factory or an
/// `initCompleted` hook, observed or not; and each value made is torn down once. Registered in
/// the app, in an opened scope, or in a plain child below the scope; made by a synchronous or
/// an async factory. (An opened scope's own scoped value once had two, one per path.)
@Suite struct OneValueOnEveryPathTests {
    final class Value: Sendable {}
    final class Shared: Sendable {
        let value: Value
        init(_ value: Value) { self.value = value }
    }
    final class Completed: Sendable {
        let value: Value
        init(_ value: Value) { self.value = value }
    }

    enum Level: CaseIterable { case app, scope, childBelowScope }

    /// A new value, noted in `made`.
    private static func made(into made: Collected<Value>) -> Value {
        let value = Value()
        made.append(value)
        return value
    }

    @Test(arguments: Level.allCases, [Scope.singleton, .scoped])
    func everyPathGetsTheOneValue(registeredIn level: Level, scope: Scope) async throws {
        for isAsync in [false, true] {
            try await everyPathGetsTheOneValue(registeredIn: level, scope: scope, async: isAsync, in: nil)
            // The same in a test's scope of the app, which keeps its own copies of singletons.
            let app = AsyncDependencyInjector()
            try await app.withOverrides({ _ in }) {
                try await everyPathGetsTheOneValue(
                    registeredIn: level, scope: scope, async: isAsync, in: AsyncDependencyInjector.current)
            }
        }
    }

    /// The check, in `test` (a test's scope) if given, else in an app of its own.
    private func everyPathGetsTheOneValue(
        registeredIn level: Level, scope: Scope, async isAsync: Bool, in test: AsyncDependencyInjector?
    ) async throws {
        let app = test?.parent ?? AsyncDependencyInjector()
        let request = (test ?? app).openScope()
        let child = request.child()
        let holder = [Level.app: app, .scope: request, .childBelowScope: child][level] ?? app
        let through = level == .childBelowScope ? child : request
        let made = Collected<Value>()
        let closed = Collected<Value>()
        if isAsync {
            await holder.register(Value.self, scope: scope) { _ in Self.made(into: made) }
                .teardown { closed.append($0) }
        } else {
            holder.synchronous.register(Value.self, scope: scope) { _ in Self.made(into: made) }
                .teardown { closed.append($0) }
        }
        through.synchronous.register(Shared.self, scope: .graph) { r in try Shared(r.resolve()) }
        await through.register(Shared.self, name: "async", scope: .graph) { r in try await Shared(r.resolve()) }
        let completed = Collected<Value>()
        through.synchronous.register(Completed.self) { r in try Completed(r.resolve()) }
            .initCompleted { r, _ in completed.append(try r.resolve(Value.self)) }

        let value = try await through.resolve(Value.self)
        var reached = [
            try await through.resolve(Value.self),
            try await through.resolve(Shared.self, name: "async").value,
            try through.synchronous.resolve(Value.self),  // kept: read without a factory run
        ]
        if !isAsync {
            reached += [
                try through.synchronous.resolve(Shared.self).value,
                try through.synchronous.resolve(Completed.self).value,
            ]
            reached += completed.values
        }
        await through.observe { _ in }  // an observed injector's resolves take the walk
        reached += [try await through.resolve(Value.self), try through.synchronous.resolve(Value.self)]

        #expect(reached.allSatisfy { $0 === value })
        #expect(made.values.count == 1)
        try await request.close()
        try await child.close()  // a singleton registered in the child is the child's to close
        try await test?.close()
        try await app.close()
        #expect(closed.values.count == 1 && closed.values.first === value)
    }
}
