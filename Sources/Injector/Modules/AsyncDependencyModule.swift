/// A group of related registrations for an ``AsyncDependencyInjector``, installed together:
/// the async counterpart of ``DependencyModule``.
///
/// ```swift
/// struct PersistenceModule: AsyncDependencyModule {
///     func register(in injector: AsyncDependencyInjector) async {
///         await injector.register(Database.self, scope: .eagerSingleton) { _ in try await Database.connect() }
///         await injector.register(UserRepository.self) { r in try await UserRepository(database: r.resolve()) }
///     }
/// }
///
/// try await server.install(PersistenceModule(), MailModule())
/// ```
public protocol AsyncDependencyModule: Sendable {
    /// Registers the module's dependencies into `injector`.
    ///
    /// Throw to abandon the installation; ``AsyncDependencyInjector/install(_:)-(AsyncDependencyModule...)``
    /// then undoes every registration it made.
    func register(in injector: AsyncDependencyInjector) async throws(InjectionError)
}

/// An `install` in progress on an ``AsyncDependencyInjector``: the module registering, and
/// what to undo if the installation fails. Bound as a task-local while the modules register,
/// so registrations made by other tasks meanwhile are not attributed to a module.
final class AsyncInstallation: @unchecked Sendable {
    // Every stored property is read and written only while isolated to `injector` (from
    // its `register`, `unregister` and `install`), which serialises all access.
    let injector: AsyncDependencyInjector
    var module: String?
    private(set) var replaced: [(key: DependencyKey, previous: AsyncEntry?, module: String?)] = []
    private var replacedKeys: Set<DependencyKey> = []
    private(set) var eagerKeys: [DependencyKey] = []
    private(set) var installedModules: [ObjectIdentifier] = []

    @TaskLocal static var current: AsyncInstallation?

    init(injector: AsyncDependencyInjector) {
        self.injector = injector
    }

    func recordInstalled(_ module: ObjectIdentifier) {
        installedModules.append(module)
    }

    func recordReplacement(of key: DependencyKey, previous: AsyncEntry?, module: String?, isEager: Bool) {
        if replacedKeys.insert(key).inserted { replaced.append((key, previous, module)) }
        if isEager { eagerKeys.append(key) }
    }
}
