extension DependencyInjector {
    /// Registers a factory that runs on the main actor, for a `@MainActor` type.
    ///
    /// ```swift
    /// @MainActor final class SettingsModel {
    ///     init(store: SettingsStore) { … }
    /// }
    ///
    /// @MainActor func configure(_ injector: DependencyInjector) {
    ///     injector.register(SettingsModel.self, scope: .singleton) { @MainActor r in
    ///         try SettingsModel(store: r.resolve())
    ///     }
    ///     let model = try? injector.resolve(SettingsModel.self)  // no `await`, no `assumeIsolated`
    /// }
    /// ```
    ///
    /// Mark the closure `@MainActor` (or pass it as `mainActorFactory:`); an unmarked closure
    /// is the nonisolated ``register(_:name:scope:fileID:line:factory:)-method``.
    ///
    /// Main-actor code (and `@Inject` in `@MainActor` classes) resolves the type like any
    /// other. A resolve off the main actor (off the main dispatch queue) throws
    /// ``InjectionError/requiresMainActor(_:path:)``, unless it is a singleton already created.
    @discardableResult
    public func register<T>(
        _ type: T.Type = T.self,
        name: String? = nil,
        scope: Scope? = nil,
        fileID: StaticString = #fileID,
        line: UInt = #line,
        mainActorFactory factory: @escaping @MainActor (DependencyInjector) throws -> T
    ) -> Registered<T> {
        let key = DependencyKey(type, name: name)
        return register(type, name: name, scope: scope, fileID: fileID, line: line) { injector in
            try MainQueue.run(for: key) { try factory(injector) }
        }
    }
}
