extension AsyncDependencyInjector {
    /// The actor face's ``DependencyInjector/resolve(_:fileID:filePath:line:)``; it awaits async factories.
    public nonisolated func resolve<Value: Sendable>(
        _ keyPath: KeyPath<InjectedValues, Value>,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line
    ) async -> Value {
        await resolve(keyPath, after: AsyncResolutionContext.frames, fileID: fileID, filePath: filePath, line: line)
    }

    /// `resolve(_:fileID:filePath:line:)` after `frames` (an ``AsyncResolver``'s).
    nonisolated func resolve<Value: Sendable>(
        _ keyPath: KeyPath<InjectedValues, Value>,
        after frames: AsyncResolutionContext.Frames,
        fileID: StaticString,
        filePath: StaticString,
        line: UInt
    ) async -> Value {
        // The keys the property reads, in the order it reads them, each awaited: read with the
        // values resolved so far, the first key that read meets unresolved is resolved next,
        // until a read meets none. So a key read only on some values (`flag ? self[A.self] :
        // self[B.self]`) is resolved when, and only when, the property reads it, as on the sync face.
        var values: [DependencyKey: Any] = [:]
        var resolved: Set<DependencyKey> = []
        while true {
            let read = InjectedValues.read(keyPath, from: values)
            guard let key = read.keys.first(where: { !resolved.contains($0) }) else { return read.value }
            resolved.insert(key)
            do {
                values[key] = try await self.value(for: key, observed: true, after: frames)
            } catch {
                let site = DeclarationSite(fileID: fileID, filePath: filePath, line: line)
                values[key] = InjectedValues.fallingBack(from: key, after: error, readAt: site, in: core)
            }
        }
    }

    /// The actor face's ``DependencyInjector/register(_:scope:fileID:line:factory:)``, its factory async and given the
    /// run's ``AsyncResolver``.
    public nonisolated func register<Value: Sendable>(
        _ keyPath: KeyPath<InjectedValues, Value>,
        scope: Scope? = nil,
        fileID: StaticString = #fileID,
        line: UInt = #line,
        factory: @escaping @Sendable (AsyncResolver) async throws -> Value
    ) async {
        guard let key = InjectedValues.registeredKey(for: keyPath, at: DeclarationSite(fileID: fileID, line: line))
        else { return }
        core.store(key: key, scope: scope, factory: .async(factory), fileID: fileID, line: line)
    }
}
