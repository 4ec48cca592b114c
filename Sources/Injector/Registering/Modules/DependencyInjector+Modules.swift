extension DependencyInjector {
    /// Installs `modules` in order, then creates their ``Scope/eagerSingleton`` registrations.
    ///
    /// ```swift
    /// try DependencyInjector.shared.install(NetworkingModule(), PaymentsModule())
    /// ```
    ///
    /// - A module type already installed into this injector is skipped. One that another
    ///   `install` is installing at the moment is waited for: `install` returns once its
    ///   registrations are in place, or throws what that installation threw.
    /// - When two modules register the same key, the last one wins;
    ///   ``module(providing:name:)`` says which.
    /// - If a module throws or an eager singleton cannot be created, `install` undoes every
    ///   registration it made (earlier ones of those keys come back) and throws.
    /// - Into a ``seal()``ed injector, `install` throws ``InjectionError/sealed(_:)``.
    ///
    /// Run `install` at start-up, before other threads register into the same keys: undoing a
    /// failed installation restores what the keys held when it first replaced them.
    public func install(_ modules: any DependencyModule...) throws(InjectionError) {
        try install(modules)
    }

    /// Installs `modules` in order; see ``install(_:)-(DependencyModule...)``.
    public func install(_ modules: [any DependencyModule]) throws(InjectionError) {
        if let outer = Installation.current(into: self) {  // a module installing modules
            try register(modules, into: outer)
            return
        }
        let installation = Installation(injector: self)
        var failure: InjectionError?
        Installation.$current.withValue(installation) {
            do throws(InjectionError) {
                try register(modules, into: installation)
            } catch {
                failure = error
            }
        }
        do throws(InjectionError) {
            // Outside the installation: eager factories register as themselves, not as a module.
            for key in try installation.eagerKeysToCreate(after: failure) { _ = try value(for: key) }
        } catch {
            installation.end(failing: error)
            throw error
        }
        installation.end(failing: nil)
    }

    private func register(_ modules: [any DependencyModule], into installation: Installation) throws(InjectionError) {
        for module in modules {
            switch installation.claim(type(of: module)) {
            case .skip:
                continue
            case .wait(let other):
                try installation.wait(for: other)
            case .register:
                installation.enter(type(of: module), defaultScope: module.defaultScope)
                defer { installation.leave() }
                try module.register(in: self)
            }
        }
    }

    /// The module-qualified name of the module whose registration of `type` under `name`
    /// this injector (or the nearest ancestor that has one) uses, or `nil` when it was
    /// registered outside any module or is not registered.
    ///
    /// ```swift
    /// try injector.install(LiveModule(), MockPaymentsModule())
    /// injector.module(providing: PaymentService.self)  // "MyAppTests.MockPaymentsModule"
    /// ```
    public func module<T>(providing type: T.Type, name: String? = nil) -> String? {
        lookup(DependencyKey(type, name: name))?.entry.module
    }
}
