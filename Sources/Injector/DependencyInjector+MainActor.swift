#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

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
    /// is the nonisolated ``register(_:name:scope:factory:)-method``, which cannot call a
    /// main-actor initialiser.
    ///
    /// Main-actor code resolves the type like any other, and `@Inject` properties of
    /// `@MainActor` classes read it. A resolve from another thread cannot run the factory
    /// synchronously: it throws ``InjectionError/requiresMainActor(_:path:)``, unless the
    /// value is a singleton already created, which every thread gets.
    ///
    /// Call it from the main actor: that is where the injector learns which thread runs
    /// main-actor work.
    @MainActor
    public func register<T: Sendable>(
        _ type: T.Type = T.self,
        name: String? = nil,
        scope: Scope = .transient,
        mainActorFactory factory: @escaping @MainActor (DependencyInjector) throws -> T
    ) {
        MainThread.noteCurrent()
        register(type, name: name, scope: scope) { injector in
            guard MainThread.isCurrent else {
                // The frame of this registration is on the stack: the path ends with its key.
                throw InjectionError.requiresMainActor(
                    DependencyKey(type, name: name), path: ResolutionContext.current.path)
            }
            return try MainActor.assumeIsolated { try factory(injector) }
        }
    }
}

/// Whether this thread is the one that runs main-actor work, so that a synchronous resolve
/// can run a main-actor factory in place (`MainActor.assumeIsolated` checks the same thing,
/// and stops the program where this answers `false`).
enum MainThread {
    #if canImport(Darwin)
        static var isCurrent: Bool { pthread_main_np() != 0 }

        static func noteCurrent() {}
    #else
        // Linux has no `pthread_main_np`; the main actor runs on the thread that ran the first
        // main-actor registration, which is remembered here (and never changes).
        private static let thread = Locked<pthread_t?>(nil)

        static var isCurrent: Bool {
            let current = pthread_self()
            return thread.withLock { main in main.map { pthread_equal($0, current) != 0 } ?? false }
        }

        @MainActor
        static func noteCurrent() {
            let current = pthread_self()
            thread.withLock { main in if main == nil { main = current } }
        }
    #endif
}
