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
    /// - A module that installs others is one installation with them: if an inner `install`
    ///   throws, the whole installation fails with its error, even if the module catches it.
    /// - Into a ``seal()``ed injector, `install` throws ``InjectionError/sealed(_:)`` for the
    ///   first key a module registers (a module that registers nothing changes nothing).
    ///
    /// Run `install` at start-up, before other threads register into the same keys: undoing a
    /// failed installation restores what the keys held when it first replaced them.
    public func install(_ modules: any DependencyModule...) throws(InjectionError) {
        try install(modules)
    }

    /// Installs `modules` in order; see ``install(_:)-(DependencyModule...)``.
    public func install(_ modules: [any DependencyModule]) throws(InjectionError) {
        try install(
            steps: modules.map { module in
                ModuleStep(module) { () throws(InjectionError) in try module.register(in: self) }
            })
    }

    /// Installs `modules`, whose registrations run on the main actor, as
    /// ``install(_:)-(DependencyModule...)`` installs modules: with their default scopes, each
    /// once per installation, all or nothing.
    ///
    /// ```swift
    /// try injector.install(ShopModule(), CheckoutModule())
    /// ```
    ///
    /// Disfavoured, as its array form is: `install()` and `install([])`, which either form
    /// accepts, are the plain modules' (and install nothing either way).
    @MainActor
    @_disfavoredOverload
    public func install(_ modules: any MainActorDependencyModule...) throws(InjectionError) {
        try install(modules)
    }

    /// Installs `modules`, whose registrations run on the main actor; see
    /// ``install(_:)-(MainActorDependencyModule...)``.
    @MainActor
    @_disfavoredOverload
    public func install(_ modules: [any MainActorDependencyModule]) throws(InjectionError) {
        let registrar = mainActor
        try install(
            steps: modules.map { module in
                ModuleStep(module) { () throws(InjectionError) in
                    // `install` runs them on this thread, the main actor's, before it returns.
                    var failure: InjectionError?
                    MainActor.assumeIsolated {
                        do throws(InjectionError) {
                            try module.register(in: registrar)
                        } catch {
                            failure = error
                        }
                    }
                    if let failure { throw failure }
                }
            })
    }

    /// Installs the modules of `steps`, in order: the one `install` of this face.
    private func install(steps: [ModuleStep]) throws(InjectionError) {
        if let outer = Installation.current(into: self) {  // a module installing modules
            do throws(InjectionError) {
                try register(steps, into: outer)
            } catch {
                outer.noteNestedFailure(error)  // the outer installation fails with it
                throw error
            }
            return
        }
        let installation = Installation(injector: self)
        var failure: InjectionError?
        Installation.$current.withValue(installation) {
            do throws(InjectionError) {
                try register(steps, into: installation)
            } catch {
                failure = error
            }
        }
        do throws(InjectionError) {
            // Outside the installation: eager factories register as themselves, not as a module.
            for key in try installation.eagerKeysToCreate(after: failure) { _ = try value(for: key) }
        } catch {
            tearDown(installation.end(failing: error))
            installation.release(failing: error)
            throw error
        }
        tearDown(installation.end(failing: nil))
        installation.release(failing: nil)
    }

    private func register(_ steps: [ModuleStep], into installation: Installation) throws(InjectionError) {
        for step in steps {
            switch installation.claim(step.type) {
            case .skip:
                continue
            case .wait(let other):
                try installation.wait(for: other)
            case .register:
                installation.enter(step.type, defaultScope: step.defaultScope)
                defer { installation.leave() }
                try step.register()
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

/// One module as `install` runs it: its type (installed once per installation), its default
/// scope, and its registrations (a `DependencyModule`'s, or a `MainActorDependencyModule`'s on
/// the main actor). A struct field, as typed-throws closures must be kept (see SWIFT-FACTS).
private struct ModuleStep {
    let type: any Any.Type
    let defaultScope: Scope?
    let register: () throws(InjectionError) -> Void

    init(_ module: any ScopedModule, register: @escaping () throws(InjectionError) -> Void) {
        type = Swift.type(of: module)
        defaultScope = module.defaultScope
        self.register = register
    }
}
