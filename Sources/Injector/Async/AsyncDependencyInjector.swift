/// A container whose factories are `async`: open a database, fetch a configuration, warm a
/// cache, all while the dependency is being resolved.
///
/// ```swift
/// let injector = AsyncDependencyInjector()
/// await injector.register(Database.self, scope: .singleton) { _ in
///     try await Database.connect(to: "postgres://localhost/app")
/// }
/// await injector.register(UserRepository.self) { r in
///     try await UserRepository(database: r.resolve())
/// }
///
/// let users = try await injector.resolve(UserRepository.self)
/// ```
///
/// It shares its vocabulary with ``DependencyInjector``: the same ``DependencyKey``s, the same
/// ``Scope``s and the same typed ``InjectionError``s, with the same messages. Values must be
/// `Sendable`, since they are handed from task to task.
///
/// It is an actor, and it suspends (never blocks) while a factory runs, so a factory may
/// resolve other dependencies, and other tasks may resolve meanwhile:
///
/// - A singleton's factory runs **once**, however many tasks ask for it first: they all await
///   that one creation. If it throws, every one of them gets the error, nothing is kept, and
///   the next resolve runs the factory again.
/// - A cycle (`A → B → A`) is reported as ``InjectionError/circularDependency(path:)`` with its
///   path, also when it runs through singletons that different tasks are creating at once. It
///   never hangs.
/// - A resolve whose task is cancelled while it waits for a singleton stops waiting with
///   ``InjectionError/factoryFailed(_:path:underlying:)`` and a `CancellationError`. The
///   creation belongs to the injector, not to the task that started it, so it goes on and the
///   other callers get the value.
///
/// To use async-created singletons from synchronous code (or `@Inject`), hand them to a
/// ``DependencyInjector`` with ``export(_:name:to:)``.
public actor AsyncDependencyInjector {
    /// The process-wide async injector, which ``current`` returns unless a scope binds another.
    ///
    /// ```swift
    /// await AsyncDependencyInjector.shared.register(Clock.self) { _ in SystemClock() }
    /// ```
    public static let shared = AsyncDependencyInjector()

    /// The async injector that code without one of its own should use.
    ///
    /// It is ``shared`` unless a task-local scope binds another one, which is how each test
    /// gets its own dependencies:
    ///
    /// ```swift
    /// let injector = AsyncDependencyInjector.shared.child()
    /// await injector.register(MockMailer() as any Mailer)
    /// try await AsyncDependencyInjector.$current.withValue(injector) {
    ///     try await SignUp().run()  // resolves from `injector`
    /// }
    /// ```
    ///
    /// While an injector runs a factory, it is `current` for that factory's work (and
    /// ``DependencyInjector/current`` is left alone).
    ///
    /// > Important: Like every task-local value, the binding reaches `Task {}`, `async let` and
    /// > task-group children, but not `Task.detached`.
    @TaskLocal public static var current: AsyncDependencyInjector = .shared

    /// The injector this one falls back to for keys it does not hold itself.
    ///
    /// ```swift
    /// let child = injector.child()
    /// assert(child.parent === injector)
    /// ```
    public nonisolated let parent: AsyncDependencyInjector?

    /// This injector's own registrations and what they have produced.
    var entries: [DependencyKey: AsyncEntry] = [:]
    /// The ready values in `entries` (instances and created singletons), readable without
    /// entering the actor. Written only by `setEntry`, together with `entries`.
    nonisolated let ready = Locked<[DependencyKey: any Sendable]>([:])
    /// The module that made each registration in `entries`, if a module did.
    var moduleNames: [DependencyKey: String] = [:]
    /// The module types installed into this injector, so that installing one again is a no-op.
    var installedModules: Set<ObjectIdentifier> = []

    /// The singleton (and weak) creations running now, by registration identity.
    var inFlight: [ObjectIdentifier: AsyncCreation] = [:]

    /// Creates an empty injector, independent of ``shared``.
    ///
    /// ```swift
    /// let injector = AsyncDependencyInjector()
    /// ```
    public init() {
        parent = nil
    }

    private init(parent: AsyncDependencyInjector) {
        self.parent = parent
    }

    /// Creates an injector that sees this one's registrations and can override them locally.
    ///
    /// ```swift
    /// let test = injector.child()
    /// await test.register(MockMailer() as any Mailer)  // the parent is untouched
    /// ```
    ///
    /// As with ``DependencyInjector/child()``: a singleton registered in an ancestor is created
    /// and kept by that ancestor, with the ancestor's registrations, so every child shares it
    /// and no child's override leaks into it. A transient registered in an ancestor is built by
    /// the injector that resolves it, so the child's overrides apply to its dependencies.
    public nonisolated func child() -> AsyncDependencyInjector {
        AsyncDependencyInjector(parent: self)
    }
}
