import Injector

// Opened scopes on either face: `openScope()`, `declareScoped`.

extension FaceInjector {
    func openScope() -> FaceInjector {
        switch base {
        case .sync(let injector): FaceInjector(.sync(injector.openScope()))
        case .async(let injector): FaceInjector(.async(injector.openScope()))
        }
    }

    /// Declares `type` as provided by each opened scope (the declaration's site is this line).
    func declareScoped<T: Sendable>(_ type: T.Type) async {
        switch base {
        case .sync(let injector): injector.declareScoped(type)
        case .async(let injector): await injector.declareScoped(type)
        }
    }
}

// Teardown on either face: `teardown`, `close()` (`reset(_:)` is in ResetTests). The async face registers an
// async teardown, so that `close()` awaits one.

extension FaceInjector {
    /// Registers a factory that resolves each of `needs`, then makes the value, which
    /// `tornDown` closes when the injector lets it go.
    func register<T: Sendable>(
        _ type: T.Type,
        scope: Scope,
        needing needs: [Need] = [],
        tornDown: @escaping @Sendable (T) throws -> Void,
        _ make: @escaping @Sendable () throws -> T
    ) async {
        switch base {
        case .sync(let injector):
            injector.register(type, scope: scope) { r in
                for need in needs { try need.sync(r) }
                return try make()
            }
            .teardown(tornDown)
        case .async(let injector):
            await injector.register(type, scope: scope) { r in
                for need in needs { try await need.async(r) }
                return try make()
            }
            .teardown { value async throws in
                await Task.yield()  // a real suspension
                try tornDown(value)
            }
        }
    }

    func close() async throws(TeardownError) {
        switch base {
        case .sync(let injector): try injector.close()
        case .async(let injector): try await injector.close()
        }
    }
}
