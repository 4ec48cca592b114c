extension AsyncDependencyInjector {
    /// The key-path dependency: the registered value, or the key's default value.
    ///
    /// ```swift
    /// let network = await injector.resolve(\.networkProvider)
    /// ```
    ///
    /// It never fails: without a registration, or if its (awaited) factory throws, it is the
    /// default (in a test scope, a failing factory is recorded on the test, at this call:
    /// leave `fileID`, `filePath` and `line` to their defaults).
    public nonisolated func resolve<Value: Sendable>(
        _ keyPath: KeyPath<InjectedValues, Value>,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line
    ) async -> Value {
        guard let key = InjectedValues.key(for: keyPath) else {
            return InjectedValues(resolved: nil)[keyPath: keyPath]
        }
        let value: Any?
        do {
            value = try await self.value(for: key, observed: true)
        } catch {
            let site = DeclarationSite(fileID: fileID, filePath: filePath, line: line)
            value = InjectedValues.fallingBack(from: key, after: error, readAt: site, in: core)
        }
        return InjectedValues(resolved: value)[keyPath: keyPath]
    }

    /// Registers an async factory for the key behind `keyPath`, for `scope`.
    ///
    /// ```swift
    /// await injector.register(\.networkProvider, scope: .singleton) { r in
    ///     try await LiveNetwork(session: r.resolve())
    /// }
    /// await test.register(\.networkProvider) { _ in MockNetwork() }  // a value of the test's
    /// ```
    ///
    /// If the factory throws, resolving the key path yields the key's default value. Without
    /// a `scope`, the injector's (or the installing module's) default scope applies.
    public nonisolated func register<Value: Sendable>(
        _ keyPath: KeyPath<InjectedValues, Value>,
        scope: Scope? = nil,
        fileID: StaticString = #fileID,
        line: UInt = #line,
        factory: @escaping @Sendable (AsyncDependencyInjector) async throws -> Value
    ) async {
        guard let key = InjectedValues.key(for: keyPath) else { return }
        core.store(key: key, scope: scope, factory: .async(factory), fileID: fileID, line: line)
    }
}
