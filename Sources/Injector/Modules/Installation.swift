/// An `install` in progress on one thread: which module is registering, and what to undo if
/// the installation fails.
///
/// It lives in the installing thread's ``ResolutionContext`` and only that thread touches it.
final class Installation {
    let injector: DependencyInjector
    /// The modules whose `register(in:)` is running, innermost last (a module may install
    /// other modules).
    private(set) var modules: [any DependencyModule.Type] = []
    /// What each key held before this installation first replaced it, in order.
    private var replaced: [(key: DependencyKey, previous: Entry?)] = []
    private var replacedKeys: Set<DependencyKey> = []
    /// Eager singletons registered by this installation, in registration order.
    private(set) var eagerKeys: [DependencyKey] = []
    /// The first key a sealed injector refused to register.
    private(set) var refusedKey: DependencyKey?
    /// Module types this installation marked as installed.
    private(set) var installedModules: [ObjectIdentifier] = []

    init(injector: DependencyInjector) {
        self.injector = injector
    }

    /// The module-qualified name of the module that is registering right now.
    var module: String? { modules.last.map { String(reflecting: $0) } }

    /// The installation in progress on this thread into `injector`, if any.
    static func current(into injector: DependencyInjector) -> Installation? {
        guard let installation = ResolutionContext.current.installation, installation.injector === injector else {
            return nil
        }
        return installation
    }

    func withModule<Result>(
        _ module: any DependencyModule.Type,
        _ body: () throws(InjectionError) -> Result
    ) throws(InjectionError) -> Result {
        modules.append(module)
        defer { modules.removeLast() }
        return try body()
    }

    func recordInstalled(_ module: ObjectIdentifier) {
        installedModules.append(module)
    }

    func recordReplacement(of key: DependencyKey, previous: Entry?, isEager: Bool) {
        if replacedKeys.insert(key).inserted { replaced.append((key, previous)) }
        if isEager { eagerKeys.append(key) }
    }

    func recordRefusal(of key: DependencyKey) {
        if refusedKey == nil { refusedKey = key }
    }

    /// Puts back every entry this installation replaced, and forgets the modules it installed.
    ///
    /// What the installation had stored (instances, factories, eager singletons it created) is
    /// released after the unlock: their `deinit`s may call back into the injector.
    func undo() {
        injector.registry.update { registry in
            for module in installedModules { registry.installedModules.remove(module) }
            return replaced.reversed().map { key, previous in exchange(&registry[key], with: previous) }
        }
    }
}
