extension AsyncDependencyInjector {
    /// Wraps every value of `type` (under `name`) that this injector, or a descendant of it,
    /// makes; the rules are those of ``DependencyInjector/decorate(_:name:fileID:line:_:)``.
    ///
    /// ```swift
    /// await server.register((any Store).self, scope: .singleton) { r in try await PostgresStore(pool: r.resolve()) }
    /// await server.decorate((any Store).self) { r, inner in try await CachingStore(inner, cache: r.resolve()) }
    /// let store = try await server.resolve((any Store).self)  // CachingStore(PostgresStore), made once
    /// ```
    ///
    /// The decorator may await. It wraps what the actor face's factories make; a value made
    /// by a synchronous factory (registered through ``synchronous``) cannot await it, and its
    /// resolve fails with an error that says so: decorate that one with
    /// `synchronous.decorate`, whose decorators run on both faces.
    public func decorate<T: Sendable>(
        _ type: T.Type,
        name: String? = nil,
        fileID: StaticString = #fileID,
        line: UInt = #line,
        _ decorator: @escaping @Sendable (AsyncDependencyInjector, T) async throws -> T
    ) {
        let key = DependencyKey(type, name: name)
        core.add(
            .async { injector, value in
                try await decorator(injector, DependencyInjector.cast(value, to: T.self, key: key))
            },
            to: key, fileID: fileID, line: line)
    }

    /// `value`, made by this face for `key` by a factory that decorates its own values (one
    /// that caches by argument), as its decorators make it.
    nonisolated func decoratedIfAny<T: Sendable>(_ value: T, key: DependencyKey) async throws -> T {
        guard core.mayDecorate(key) else { return value }
        let decorated = try await decorated(value, key: key, frames: AsyncResolutionContext.frames)
        return try DependencyInjector.cast(decorated, to: T.self, key: key)
    }

    /// `value`, which this face has just made for `key`, wrapped by the decorators of the key
    /// (see `DependencyInjector.decorated(_:key:in:)`), the synchronous ones with the core; a
    /// wrapper that fails meanwhile fails it.
    nonisolated func decorated(
        _ value: any Sendable,
        key: DependencyKey,
        frames: AsyncResolutionContext.Frames
    ) async throws -> any Sendable {
        var value = value
        for decorator in core.decorators(of: key) {
            switch decorator.body {
            case .sync(let decorate):
                let inner = value
                value = Self.assumeSendable(
                    try DependencyInjector.$current.withValue(core) { try decorate.decorate(core, inner) })
            case .async(let decorate): value = try await decorate(self, value)
            }
            if let failure = frames.takeCaptured() { throw failure.error(building: value, after: frames.keys) }
        }
        return value
    }

    /// A synchronous decorator's value, which is of its key's type (`cast` checked it), the
    /// type of a value the actor face made: `Sendable`. (`any Sendable` and `Any` are laid out
    /// alike, 32 bytes: `Sendable` is a marker protocol, with no witness table. The language
    /// has no checked conversion to a marker protocol, and `unsafeBitCast` to an existential
    /// type traps.)
    private static func assumeSendable(_ value: Any) -> any Sendable {
        withUnsafePointer(to: value) { $0.withMemoryRebound(to: (any Sendable).self, capacity: 1) { $0.pointee } }
    }
}
