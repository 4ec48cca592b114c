/// An `install` in progress, for either face: which module is registering, and what to undo
/// if the installation fails. Bound as a task-local while the modules register, so that
/// registrations made meanwhile by other threads or tasks are not attributed to a module.
final class Installation: Sendable {
    @TaskLocal static var current: Installation?

    let injector: DependencyInjector
    // Locked: an async module may register from child tasks at once.
    private let journal = Locked(Journal())

    private struct Journal {
        /// The modules whose `register(in:)` is running, innermost last.
        var modules: [any Any.Type] = []
        /// What each key held before this installation first replaced it, in order.
        var replaced: [(key: DependencyKey, previous: Entry?)] = []
        var replacedKeys: Set<DependencyKey> = []
        /// Eager singletons registered by this installation, in registration order.
        var eagerKeys: [DependencyKey] = []
        /// The first key a sealed injector refused to register.
        var refusedKey: DependencyKey?
        /// Module types this installation marked as installed.
        var installedModules: [ObjectIdentifier] = []
    }

    init(injector: DependencyInjector) {
        self.injector = injector
    }

    /// The installation in progress into `injector` in this task, if any.
    static func current(into injector: DependencyInjector) -> Installation? {
        guard let installation = current, installation.injector === injector else { return nil }
        return installation
    }

    /// The module-qualified name of the module that is registering right now.
    var module: String? { journal.withLock { $0.modules.last.map { String(reflecting: $0) } } }

    /// Eager singletons registered by this installation, in registration order.
    var eagerKeys: [DependencyKey] { journal.withLock { $0.eagerKeys } }

    /// The first key a sealed injector refused to register during this installation.
    var refusedKey: DependencyKey? { journal.withLock { $0.refusedKey } }

    /// Marks `module` as installed into the injector; `false` when it already was.
    func markInstalled(_ module: any Any.Type) -> Bool {
        let id = ObjectIdentifier(module)
        guard injector.registry.withLock({ $0.installedModules.insert(id).inserted }) else { return false }
        journal.withLock { $0.installedModules.append(id) }
        return true
    }

    /// Registrations made from now until `leave()` are attributed to `module`.
    func enter(_ module: any Any.Type) {
        journal.withLock { $0.modules.append(module) }
    }

    /// Ends what the last `enter(_:)` began.
    func leave() {
        journal.withLock { _ = $0.modules.popLast() }
    }

    func recordReplacement(of key: DependencyKey, previous: Entry?, isEager: Bool) {
        journal.withLock { journal in
            if journal.replacedKeys.insert(key).inserted { journal.replaced.append((key, previous)) }
            if isEager { journal.eagerKeys.append(key) }
        }
    }

    func recordRefusal(of key: DependencyKey) {
        journal.withLock { journal in
            if journal.refusedKey == nil { journal.refusedKey = key }
        }
    }

    /// Puts back what the installation replaced and forgets the modules it marked installed.
    func undo() {
        let (replaced, installed) = journal.withLock { ($0.replaced, $0.installedModules) }
        injector.registry.update { registry in
            for module in installed { registry.installedModules.remove(module) }
            return replaced.reversed().map { key, previous in exchange(&registry[key], with: previous) }
        }
    }
}
