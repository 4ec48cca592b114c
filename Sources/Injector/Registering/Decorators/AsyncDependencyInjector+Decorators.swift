extension AsyncDependencyInjector {
    /// The actor face's ``DependencyInjector/decorate(_:name:fileID:line:_:)``, its decorator async and given the run's
    /// ``AsyncResolver``. A value made by a synchronous factory (through ``synchronous``) cannot await it and fails to
    /// resolve: decorate that one with `synchronous.decorate`.
    public func decorate<T: Sendable>(
        _ type: T.Type,
        name: String? = nil,
        fileID: StaticString = #fileID,
        line: UInt = #line,
        _ decorator: @escaping @Sendable (AsyncResolver, T) async throws -> T
    ) {
        let key = DependencyKey(type, name: name)
        core.add(
            .async { r, value in
                try await decorator(r, DependencyInjector.cast(value, to: T.self, key: key))
            },
            to: key, fileID: fileID, line: line)
    }

    /// `value`, made by this face for `key` by a factory that decorates its own values (one
    /// that caches by argument), as its decorators make it.
    nonisolated func decoratedIfAny<T: Sendable>(
        _ value: T,
        key: DependencyKey,
        after frames: AsyncResolutionContext.Frames
    ) async throws -> T {
        guard core.mayDecorate(key) else { return value }
        let decorated = try await decorated(value, as: T.self, key: key, frames: frames)
        return try DependencyInjector.cast(decorated, to: T.self, key: key)
    }

    /// `value`, which this face has just made for `key` as a `valueType`, wrapped by the
    /// decorators of the key (see `DependencyInjector.decorated(_:key:in:)`), the synchronous
    /// ones with the core; a wrapper that fails meanwhile fails it.
    nonisolated func decorated(
        _ value: any Sendable,
        as valueType: any Sendable.Type,
        key: DependencyKey,
        frames: AsyncResolutionContext.Frames
    ) async throws -> any Sendable {
        var value = value
        for decorator in core.decorators(of: key) {
            switch decorator.body {
            case .sync(let decorate):
                let inner = value
                let decorated = try DependencyInjector.$current.withValue(core) { try decorate.decorate(core, inner) }
                value = try Self.sendable(decorated, as: valueType, key: key)
            case .async(let decorate): value = try await decorate(AsyncResolver(self, frames: frames, task: nil), value)
            }
            if let failure = frames.takeCaptured() { throw failure.error(building: value, after: frames.keys) }
        }
        return value
    }

    /// A synchronous decorator's value (an `Any`, of its key's type) as the `Sendable` type the
    /// registration makes: a checked cast, which `valueType` opens.
    private static func sendable<Value: Sendable>(
        _ value: Any,
        as valueType: Value.Type,
        key: DependencyKey
    ) throws(InjectionError) -> any Sendable {
        try DependencyInjector.cast(value, to: Value.self, key: key)
    }
}
