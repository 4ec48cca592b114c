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
/// It shares ``DependencyInjector``'s ``DependencyKey``s, ``Scope``s and typed
/// ``InjectionError``s, with the same messages. Values must be `Sendable`, since they are
/// handed from task to task. It suspends (never blocks) while a factory runs, so a factory may
/// resolve other dependencies, and other tasks may resolve meanwhile:
///
/// - A singleton's factory runs **once**, however many tasks ask for it first: they all await
///   that one creation. If it throws, they all get the error, nothing is kept, and the next
///   resolve runs the factory again.
/// - A cycle (`A → B → A`) is reported as ``InjectionError/circularDependency(path:)``, also
///   when it runs through singletons that different tasks are creating at once. It never hangs.
/// - A resolve whose task is cancelled while it waits for a singleton stops waiting with
///   ``InjectionError/factoryFailed(_:path:underlying:)`` and a `CancellationError`. The
///   creation belongs to the injector, so it goes on and the other callers get the value.
///
/// To use async-created singletons from synchronous code (or `@Inject`), register them in a
/// ``DependencyInjector``: `sync.register(try await services.resolve(Database.self))`.
public actor AsyncDependencyInjector {
    /// The actor face's ``DependencyInjector/shared``, the same root: what either face registers, the other sees.
    /// A synchronous resolve of a key whose factory is `async` throws, saying to `await` it.
    public static let shared = AsyncDependencyInjector(parent: nil, core: DependencyInjector.shared)

    /// The actor face's ``DependencyInjector/current``: ``shared`` unless a task-local scope binds another.
    /// The property wrappers read ``DependencyInjector/current``; while an injector runs a factory, its
    /// ``synchronous`` registry is that too.
    @TaskLocal public static var current: AsyncDependencyInjector = .shared

    /// The actor face's ``DependencyInjector/parent``; it behaves the same.
    public nonisolated let parent: AsyncDependencyInjector?

    /// The injector this face works on (its ancestors are the cores of this face's), so both
    /// faces share one registry, scope rule, walk and diagnostics layer.
    @usableFromInline nonisolated let core: DependencyInjector

    /// This injector's registry as a ``DependencyInjector``, for synchronous factories: what
    /// the `@Inject` (or ``Injected``) properties of the objects this injector builds can get
    /// without `await`, as every `await resolve` can.
    ///
    /// ```swift
    /// server.synchronous.register(Clock.self, scope: .singleton) { _ in SystemClock() }
    /// await server.register(InvoiceService.self) { _ in InvoiceService() }  // its `@Inject var clock`
    /// ```
    ///
    /// While this injector runs a factory (or a `withScope` body), ``DependencyInjector/current``
    /// is this registry, so the wrappers of what is built there resolve here: ready values
    /// (instances, created singletons) and synchronous factories; what it does not hold, from
    /// the `DependencyInjector.current` bound outside. A dependency whose factory is `async`
    /// makes the wrapper fail with ``InjectionError/factoryFailed(_:path:underlying:)``, saying
    /// to await it or pass it to the object's `init`. Registrations, scopes and teardowns made
    /// through it are this injector's own.
    public nonisolated var synchronous: DependencyInjector { core }

    /// The actor face's ``DependencyInjector/init(defaultScope:)``; it behaves the same.
    public init(defaultScope: Scope = .transient) {
        parent = nil
        core = DependencyInjector(defaultScope: defaultScope)
    }

    /// The actor face's ``DependencyInjector/defaultScope``; it behaves the same.
    public nonisolated var defaultScope: Scope { core.defaultScope }

    /// The actor face of `child`, a child of this face's registry made on the sync face: one
    /// injector for both faces (the testing trait's strict app, over the shared root).
    package nonisolated func face(ofChild child: DependencyInjector) -> AsyncDependencyInjector {
        AsyncDependencyInjector(parent: self, core: child)
    }

    /// The actor face of `core`, whose parent's face is `parent` (`nil`: a root, as ``shared``
    /// is of ``DependencyInjector/shared``).
    private init(parent: AsyncDependencyInjector?, core: DependencyInjector) {
        self.parent = parent
        self.core = core
    }

    /// The actor face's ``DependencyInjector/child()``; it behaves the same.
    public nonisolated func child() -> AsyncDependencyInjector {
        child(singletons: .shared)
    }

    /// `DependencyInjector.child(singletons:)` on the actor face, for its test scopes.
    package nonisolated func child(singletons: ChildSingletons) -> AsyncDependencyInjector {
        AsyncDependencyInjector(parent: self, core: core.child(singletons: singletons))
    }

    /// The actor face's ``DependencyInjector/openScope(fileID:filePath:line:)``; its ``close()`` awaits its teardowns.
    public nonisolated func openScope(
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line
    ) -> AsyncDependencyInjector {
        AsyncDependencyInjector(parent: self, core: core.openScope(fileID: fileID, filePath: filePath, line: line))
    }

    /// A throw-away scope that `verify()` resolves in (see `DependencyInjector.scratchScope()`).
    nonisolated func scratchScope() -> AsyncDependencyInjector {
        AsyncDependencyInjector(parent: self, core: core.scratchScope())
    }

    /// The actor face's ``DependencyInjector/previewScope()``. Bind its ``synchronous`` as
    /// ``DependencyInjector/current`` for the views' wrappers.
    public nonisolated func previewScope() -> AsyncDependencyInjector {
        AsyncDependencyInjector(parent: self, core: core.testChild(.preview))
    }

    /// A test scope under this injector (see `TestScope`), `strict` if asked, kept with
    /// `recorder` (see `TestScope.recorder`).
    package nonisolated func testChild(
        strict: Bool,
        allowing: [any Any.Type],
        recorder: TestIssueRecorder? = TestIssueRecorder.current
    ) -> AsyncDependencyInjector {
        let scope = TestScope(isStrict: strict, allowing: allowing, recorder: recorder)
        return AsyncDependencyInjector(parent: self, core: core.testChild(scope))
    }

    /// The face of `core`: this injector's or an ancestor's (a singleton's factory runs with its keeper's).
    nonisolated func face(of core: DependencyInjector) -> AsyncDependencyInjector {
        var face = self
        while face.core !== core, let parent = face.parent { face = parent }
        return face
    }
}
