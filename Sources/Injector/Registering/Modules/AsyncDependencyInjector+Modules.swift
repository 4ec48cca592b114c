extension AsyncDependencyInjector {
    /// The actor face's ``DependencyInjector/install(_:)-(DependencyModule...)``, for ``AsyncDependencyModule``s; it
    /// awaits (not blocks on) a module that another `install` is installing.
    public func install(_ modules: any AsyncDependencyModule...) async throws(InjectionError) {
        try await install(modules)
    }

    /// Installs `modules` in order; see ``install(_:)-(AsyncDependencyModule...)``.
    public func install(_ modules: [any AsyncDependencyModule]) async throws(InjectionError) {
        if let outer = Installation.current(into: core) {  // a module installing modules
            do throws(InjectionError) {
                try await register(modules, into: outer)
            } catch {
                outer.noteNestedFailure(error)  // the outer installation fails with it
                throw error
            }
            return
        }
        let installation = Installation(injector: core)
        var failure: InjectionError?
        await Installation.$current.withValue(installation) {
            do throws(InjectionError) {
                try await register(modules, into: installation)
            } catch {
                failure = error
            }
        }
        do throws(InjectionError) {
            // Outside the installation: eager factories register as themselves, not as a module.
            for key in try installation.eagerKeysToCreate(after: failure) { _ = try await value(for: key) }
        } catch {
            await core.tearDownAwaiting(installation.end(failing: error))
            installation.release(failing: error)
            throw error
        }
        await core.tearDownAwaiting(installation.end(failing: nil))
        installation.release(failing: nil)
    }

    private func register(
        _ modules: [any AsyncDependencyModule],
        into installation: Installation
    ) async throws(InjectionError) {
        for module in modules {
            switch installation.claim(type(of: module)) {
            case .skip:
                continue
            case .wait(let other):
                try await installation.wait(for: other)
            case .register:
                installation.enter(type(of: module), defaultScope: module.defaultScope)
                defer { installation.leave() }
                try await module.register(in: self)
            }
        }
    }

    /// The actor face's ``DependencyInjector/module(providing:name:)``; it behaves the same.
    public func module<T>(providing type: T.Type, name: String? = nil) async -> String? {
        core.module(providing: type, name: name)
    }
}
