/// What an ``AsyncDependencyInjector`` hands each run of a factory, a decorator or an
/// `initCompleted` hook: resolves exactly as the injector does, from the run it was given to.
///
/// ```swift
/// await server.register(OrderService.self) { r in
///     try await OrderService(store: r.resolve(), mailer: r.resolve(name: "smtp"))
/// }
/// ```
///
/// It carries the run's path, so a resolve through it needs no task-local lookup and starts
/// no binding: the factories of a graph cost what their own work costs. Resolve through it,
/// not through an injector the closure captured: a captured injector's resolve finds the
/// path too (cycles are still reported), at the cost of a task-local read.
///
/// Keep it to the run it was given to: a resolve through it after the run has returned (from
/// a task the factory started and left running) starts a resolve of its own, as a resolve
/// through ``injector`` would.
public struct AsyncResolver: Sendable {
    /// The injector whose factory runs: for what a resolver does not offer (its
    /// ``AsyncDependencyInjector/provider(for:name:)``, ``AsyncDependencyInjector/registrations``).
    public let injector: AsyncDependencyInjector
    /// The resolutions in progress around the run, the run's own innermost.
    @usableFromInline let frames: AsyncResolutionContext.Frames

    init(_ injector: AsyncDependencyInjector, frames: AsyncResolutionContext.Frames) {
        self.injector = injector
        self.frames = frames
    }

    /// The injector's registry as a ``DependencyInjector``; see
    /// ``AsyncDependencyInjector/synchronous``.
    public var synchronous: DependencyInjector { injector.core }

    /// The value registered for `type` under `name`; see ``AsyncDependencyInjector/resolve(_:name:)``.
    ///
    /// ```swift
    /// await server.register(Checkout.self) { r in try await Checkout(cart: r.resolve(), payments: r.resolve()) }
    /// ```
    @inlinable
    public func resolve<T: Sendable>(_ type: T.Type = T.self, name: String? = nil) async throws(InjectionError) -> T {
        // The injector's hot path, with the run's frames instead of a task-local read.
        if let found = injector.core.ready.slotUnlessObserved(for: ObjectIdentifier(T.self), name: name) {
            if found.holdsAsyncFactory {
                return try await injector.resolveLocked(type, name: name, found: found.asyncFactory(), in: self)
            }
            return try found.value(as: T.self, name: name, in: injector.core)
        }
        return try await injector.resolveLocked(type, name: name, in: self)
    }

    /// Resolves a registration whose factory takes run-time arguments; see
    /// ``AsyncDependencyInjector/resolve(_:name:arguments:_:)``.
    ///
    /// ```swift
    /// let session = try await r.resolve(UserSession.self, arguments: userID)
    /// ```
    public func resolve<T: Sendable, First, each Rest>(
        _ type: T.Type = T.self,
        name: String? = nil,
        arguments first: First,
        _ rest: repeat each Rest
    ) async throws(InjectionError) -> T {
        try await injector.resolve(type, name: name, after: frames, arguments: first, repeat each rest)
    }

    /// The key-path dependency; see ``AsyncDependencyInjector/resolve(_:fileID:filePath:line:)``.
    ///
    /// ```swift
    /// await server.register(Feed.self) { r in await Feed(network: r.resolve(\.networkProvider)) }
    /// ```
    public func resolve<Value: Sendable>(
        _ keyPath: KeyPath<InjectedValues, Value>,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line
    ) async -> Value {
        await injector.resolve(keyPath, after: frames, fileID: fileID, filePath: filePath, line: line)
    }

    /// The value of `key` as an untyped value, `nil` when nothing holds it; see
    /// `AsyncDependencyInjector.value(for:observed:after:)`.
    func value(for key: DependencyKey) async throws(InjectionError) -> (any Sendable)? {
        try await injector.value(for: key, after: frames)
    }
}
