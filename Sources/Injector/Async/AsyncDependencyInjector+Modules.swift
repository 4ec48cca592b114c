extension AsyncDependencyInjector {
    /// Installs `modules` in order, then creates the ``Scope/eagerSingleton`` registrations
    /// they made; the rules are those of ``DependencyInjector/install(_:)-(DependencyModule...)``.
    ///
    /// ```swift
    /// try await server.install(PersistenceModule(), MailModule())
    /// await server.module(providing: Database.self)  // "MyServer.PersistenceModule"
    /// ```
    ///
    /// A module type already installed is skipped; the last module to register a key wins;
    /// if a module throws or an eager singleton cannot be created, every registration the
    /// installation made is undone and the error is thrown.
    public func install(_ modules: any AsyncDependencyModule...) async throws(InjectionError) {
        try await install(modules)
    }

    /// Installs `modules` in order; see ``install(_:)-(AsyncDependencyModule...)``.
    public func install(_ modules: [any AsyncDependencyModule]) async throws(InjectionError) {
        let installation = AsyncInstallation(injector: self)
        var failure: InjectionError?
        await AsyncInstallation.$current.withValue(installation) {
            for module in modules {
                let moduleType = ObjectIdentifier(type(of: module))
                guard installedModules.insert(moduleType).inserted else { continue }
                installation.recordInstalled(moduleType)
                installation.module = String(reflecting: type(of: module))
                do throws(InjectionError) {
                    try await module.register(in: self)
                } catch {
                    failure = error
                    return
                }
            }
        }
        installation.module = nil
        if failure == nil {
            for key in installation.eagerKeys {
                guard case .factory(let registration, _) = entries[key], registration.scope == .eagerSingleton
                else { continue }  // replaced meanwhile
                do {
                    _ = try await value(for: key)
                } catch {
                    failure = error
                    break
                }
            }
        }
        if let failure {
            for (key, previous, module) in installation.replaced.reversed() {
                setEntry(previous, for: key)
                moduleNames[key] = module
            }
            for module in installation.installedModules { installedModules.remove(module) }
            throw failure
        }
    }

    /// The module-qualified name of the module whose registration of `type` under `name`
    /// this injector (or the nearest ancestor that has one) uses, or `nil`.
    public func module<T>(providing type: T.Type, name: String? = nil) async -> String? {
        let key = DependencyKey(type, name: name)
        if entries[key] != nil { return moduleNames[key] }
        return await parent?.module(providing: type, name: name)
    }

    /// Stores `entry` under `key` and publishes its ready value (an instance or a created
    /// singleton) for resolves that do not enter the actor. Every change to `entries` goes
    /// through here.
    func setEntry(_ entry: AsyncEntry?, for key: DependencyKey) {
        entries[key] = entry
        let readyValue: (any Sendable)?
        switch entry {
        case .instance(let value), .factory(_, .strong(let value)): readyValue = value
        case .factory, nil: readyValue = nil
        }
        // The value published before is released after the unlock: its `deinit` is user code.
        ready.update { exchange(&$0[key], with: readyValue) }
    }

    /// Stores `entry` under `key`, attributed to the module being installed by this task.
    func store(_ entry: AsyncEntry?, for key: DependencyKey) {
        let previous = (entry: entries[key], module: moduleNames[key])
        setEntry(entry, for: key)
        guard let installation = AsyncInstallation.current, installation.injector === self else {
            moduleNames[key] = nil
            return
        }
        moduleNames[key] = installation.module
        var isEager = false
        if case .factory(let registration, _) = entry { isEager = registration.scope == .eagerSingleton }
        installation.recordReplacement(of: key, previous: previous.entry, module: previous.module, isEager: isEager)
    }
}
