import Dispatch

extension AsyncDependencyInjector {
    /// Registers an async factory that takes run-time arguments, checked by the compiler.
    ///
    /// ```swift
    /// await injector.register(UserSession.self) { (r, userID: UUID) in
    ///     try await UserSession(id: userID, api: r.resolve())
    /// }
    ///
    /// let session = try await injector.resolve(UserSession.self, arguments: userID)
    /// ```
    ///
    /// As with ``DependencyInjector``'s form, the factory makes a new value on every resolve
    /// (in the resolving task), and other arguments, or none, throw
    /// ``InjectionError/argumentMismatch(_:path:expected:given:)``.
    public func register<T: Sendable, First, each Rest>(
        _ type: T.Type = T.self,
        name: String? = nil,
        fileID: StaticString = #fileID,
        line: UInt = #line,
        factory: @escaping @Sendable (AsyncDependencyInjector, First, repeat each Rest) async throws -> T
    ) {
        core.store(
            key: DependencyKey(type, name: name),
            scope: .transient,
            factory: .taking(
                First.self, repeat (each Rest).self,
                make: .async { injector, arguments in
                    let (first, rest) = try Registration.unpack(arguments, as: (First, (repeat each Rest)).self)
                    return try await factory(injector, first, repeat each rest)
                }),
            fileID: fileID,
            line: line
        )
    }

    /// Resolves a registration whose factory takes run-time arguments, passing `arguments`.
    ///
    /// ```swift
    /// let session = try await injector.resolve(UserSession.self, arguments: userID)
    /// let report = try await injector.resolve(Report.self, arguments: 2026, Format.pdf)
    /// ```
    ///
    /// - Throws: ``InjectionError/argumentMismatch(_:path:expected:given:)`` when the
    ///   registration takes other argument types (or none), and the errors of
    ///   ``resolve(_:name:)``.
    public nonisolated func resolve<T: Sendable, First, each Rest>(
        _ type: T.Type = T.self,
        name: String? = nil,
        arguments first: First,
        _ rest: repeat each Rest
    ) async throws(InjectionError) -> T {
        let key = DependencyKey(type, name: name)
        let frames = AsyncResolutionContext.frames
        let observer = core.instrument(key, resolvedBy: frames.innermostKey)
        let start = observer == nil ? 0 : DispatchTime.now().uptimeNanoseconds
        var outcome = ResolutionEvent.Outcome.created
        defer {
            if let observer {
                core.notify(observer, of: key, resolvers: frames.keys, outcome: outcome, since: start)
            }
        }
        do {
            let registration = try core.registration(
                of: key, as: T.self, taking: First.self, repeat (each Rest).self, path: frames.keys)
            let value = try await runTransient(registration, after: frames, arguments: (first, (repeat each rest)))
            return try DependencyInjector.cast(value, to: T.self, key: key)
        } catch {
            outcome = .failed(error)
            throw error
        }
    }
}
