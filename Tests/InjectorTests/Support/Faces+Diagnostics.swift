import Injector
import TestSupport

// The diagnostics of either face (verify, graph, observe, registrations, seal, modules),
// driven through `FaceInjector`.

/// A module that both faces install: `DependencyModule` and `AsyncDependencyModule` at once,
/// registering the same keys through either, so that `module(providing:)` names the same type.
typealias FaceModule = AsyncDependencyModule & DependencyModule

/// A dependency that a factory registered with `register(_:name:scope:needing:_:)` resolves,
/// and drops, before it makes its value.
struct Need: Sendable {
    let sync: @Sendable (DependencyInjector) throws(InjectionError) -> Void
    let async: @Sendable (AsyncResolver) async throws(InjectionError) -> Void

    /// `type` under `name`.
    static func on<T: Sendable>(_ type: T.Type, name: String? = nil) -> Need {
        Need(
            sync: { r throws(InjectionError) in _ = try r.resolve(type, name: name) },
            async: { r throws(InjectionError) in _ = try await r.resolve(type, name: name) }
        )
    }
}

extension FaceInjector {
    /// The injector as a ``RegistrationInfo/owner``.
    var owner: RegistrationInfo.Owner {
        switch base {
        case .sync(let injector): .injector(injector)
        case .async(let injector): .asyncInjector(injector)
        }
    }

    /// Registers a factory that resolves each of `needs` in order (through the injector that
    /// builds the value, as factories do), then makes the value.
    func register<T: Sendable>(
        _ type: T.Type,
        name: String? = nil,
        scope: Scope? = nil,
        needing needs: [Need],
        _ make: @escaping @Sendable () throws -> T
    ) async {
        switch base {
        case .sync(let injector):
            injector.register(type, name: name, scope: scope) { r in
                for need in needs { try need.sync(r) }
                return try make()
            }
        case .async(let injector):
            await injector.register(type, name: name, scope: scope) { r in
                for need in needs { try await need.async(r) }
                return try make()
            }
        }
    }

    func verify() async throws(VerificationError) {
        switch base {
        case .sync(let injector): try injector.verify()
        case .async(let injector): try await injector.verify()
        }
    }

    /// The error `verify()` throws, or `nil` when the graph is healthy.
    func verificationError() async -> VerificationError? {
        do {
            try await verify()
            return nil
        } catch {
            return error
        }
    }

    func graph() async -> DependencyGraph {
        switch base {
        case .sync(let injector): injector.graph()
        case .async(let injector): await injector.graph()
        }
    }

    func observe(_ observer: @escaping @Sendable (ResolutionEvent) -> Void) async {
        switch base {
        case .sync(let injector): injector.observe(observer)
        case .async(let injector): await injector.observe(observer)
        }
    }

    func stopObserving() async {
        switch base {
        case .sync(let injector): injector.stopObserving()
        case .async(let injector): await injector.stopObserving()
        }
    }

    var registrations: [RegistrationInfo] {
        get async {
            switch base {
            case .sync(let injector): injector.registrations
            case .async(let injector): await injector.registrations
            }
        }
    }

    func seal() async {
        switch base {
        case .sync(let injector): injector.seal()
        case .async(let injector): await injector.seal()
        }
    }

    var isSealed: Bool {
        get async {
            switch base {
            case .sync(let injector): injector.isSealed
            case .async(let injector): await injector.isSealed
            }
        }
    }

    func install(_ modules: any FaceModule...) async throws(InjectionError) {
        try await install(modules)
    }

    /// The error `install` throws, or `nil` when it succeeds.
    func installError(_ modules: any FaceModule...) async -> InjectionError? {
        await installError(modules)
    }

    /// `installError`, but the sync face's `install` runs on a thread of its own: a module
    /// that blocks there holds no thread that Swift concurrency needs.
    func installErrorOnOwnThread(_ modules: any FaceModule...) async -> InjectionError? {
        switch base {
        case .sync(let injector):
            await onOwnThread {
                do throws(InjectionError) {
                    try injector.install(modules)
                    return nil
                } catch {
                    return error
                }
            }
        case .async(let injector):
            await FaceInjector(.async(injector)).installError(modules)
        }
    }

    private func installError(_ modules: [any FaceModule]) async -> InjectionError? {
        do {
            try await install(modules)
            return nil
        } catch {
            return error
        }
    }

    private func install(_ modules: [any FaceModule]) async throws(InjectionError) {
        switch base {
        case .sync(let injector): try injector.install(modules)
        case .async(let injector): try await injector.install(modules)
        }
    }

    func module<T>(providing type: T.Type, name: String? = nil) async -> String? {
        switch base {
        case .sync(let injector): injector.module(providing: type, name: name)
        case .async(let injector): await injector.module(providing: type, name: name)
        }
    }
}
