/// What an ``AsyncDependencyInjector`` hands each run of a factory, a decorator or an
/// `initCompleted` hook: resolves exactly as the injector does, from the run it was given to.
///
/// ```swift
/// await server.register(OrderService.self) { r in
///     try await OrderService(store: r.resolve(), mailer: r.resolve(name: "smtp"))
/// }
/// ```
///
/// It carries the run's path, into any task it is handed to (`Task.detached` too), so a cycle
/// through it is always reported. In the run's own task, a transient it resolves binds no
/// task-local, which costs more than the rest of a run's bookkeeping. Resolve through it
/// rather than through an injector the closure captured: that one reads the path from the
/// task's bindings, which, in a task started inside a transient's factory, hold it only up to
/// the nearest singleton, scoped value or outer resolve.
///
/// A resolve through it once its whole resolve has ended (from a task the factory left
/// running) is a resolve of its own, as one through ``injector`` would be.
public struct AsyncResolver: Sendable {
    /// The injector whose factory runs: for what a resolver does not offer (its
    /// ``AsyncDependencyInjector/provider(for:name:)``, ``AsyncDependencyInjector/registrations``).
    public let injector: AsyncDependencyInjector
    /// The resolutions in progress around the run, the run's own innermost.
    let frames: AsyncResolutionContext.Frames
    /// The task whose bindings (the frames bound, `current`) are the run's, where a transient
    /// asked for through this resolver need not bind its own; `nil`: none (always bind).
    let task: UInt?

    init(_ injector: AsyncDependencyInjector, frames: AsyncResolutionContext.Frames, task: UInt?) {
        self.injector = injector
        self.frames = frames
        self.task = task
    }

    /// The injector's ``AsyncDependencyInjector/synchronous``.
    public var synchronous: DependencyInjector { injector.core }

    /// The run's ``AsyncDependencyInjector/resolve(_:name:)``; it behaves the same.
    @inlinable
    #if compiler(>=6.3)
        @inline(always)
    #else
        @inline(__always)
    #endif
    public func resolve<T: Sendable>(_ type: T.Type = T.self, name: String? = nil) async throws(InjectionError) -> T {
        // The injector's hot path, with the run's frames instead of a task-local read. Always
        // inlined into the factory that calls it, so that its call is the injector's, with no
        // async call between: one costs a frame and two executor hops (on entry, and back after
        // the injector's call returns).
        if let found = injector.core.ready.slotUnlessObserved(for: ObjectIdentifier(T.self), name: name) {
            if found.holdsFactoryForTheActorFace {
                // A `.scoped` one straight to its scope: through `resolvePublished`, an async call
                // of its own, each scoped value that a factory asks for cost a frame more. Not so
                // in the injector's `resolve(_:name:)`: a second call there kept the caller from
                // inlining it, a frame more for each top-level resolve.
                if found.holdsScopedFactory {
                    return try await injector.resolveScoped(type, name: name, found: found.registration(), in: self)
                }
                return try await injector.resolvePublished(type, name: name, found: found.registration(), in: self)
            }
            do {
                return try found.value(as: T.self, name: name, in: injector.core)
            } catch {
                return try await injector.recovering(from: error, resolving: T.self, name: name, in: self)
            }
        }
        return try await injector.resolveLocked(type, name: name, in: self)
    }

    /// The run's ``AsyncDependencyInjector/resolve(_:name:arguments:_:)``; it behaves the same.
    public func resolve<T: Sendable, First, each Rest>(
        _ type: T.Type = T.self,
        name: String? = nil,
        arguments first: First,
        _ rest: repeat each Rest
    ) async throws(InjectionError) -> T {
        try await injector.resolve(type, name: name, after: frames, arguments: first, repeat each rest)
    }

    /// The run's ``AsyncDependencyInjector/resolve(_:fileID:filePath:line:)``; it behaves the same.
    public func resolve<Value: Sendable>(
        _ keyPath: KeyPath<InjectedValues, Value>,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line
    ) async -> Value {
        await injector.resolve(keyPath, after: frames, fileID: fileID, filePath: filePath, line: line)
    }

    /// The value of `key` as an untyped value, `nil` when nothing holds it, reported to an
    /// observer if `observed`; see `AsyncDependencyInjector.value(for:observed:after:)`.
    func value(for key: DependencyKey, observed: Bool = false) async throws(InjectionError) -> (any Sendable)? {
        try await injector.value(for: key, observed: observed, after: frames)
    }
}
