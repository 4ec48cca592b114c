/// How `verify()` checks a registration made from an initializer (`register(_:initializer:)`)
/// without building it: its parameters are resolved (or, when they are initializers too,
/// checked the same way), and the initializer is not called, so checking the graph at start-up
/// has no side effect of its own. A value that a closure factory asks for is built, as that
/// factory needs it.
///
/// Which initializers are checked rather than built is told by resolution depth: `verify()`
/// asks at depth 0, and an initializer being checked at depth `d` asks for its parameters at
/// `d + 1`; an initializer whose asker is neither is built. A task-local, so that both faces,
/// and every thread a synchronous resolve runs on, see it.
enum InitializerDryRun {
    /// The depths whose initializer parameters are checked rather than built.
    @TaskLocal static var checkingDepths: [Int] = []

    /// How many `verify()` runs are under way in the process, on either face.
    static let verifying = AtomicCount()

    /// What an initializer being checked throws once its parameters resolved: it was checked,
    /// not built. `verify()` takes it for a success.
    struct Checked: Error, CustomStringConvertible {
        var description: String { "checked by verify() without calling the initializer" }
    }

    /// The depth of the resolve running here: its factories on this thread and in this task,
    /// the same measure on both faces (an async factory can resolve a synchronous one).
    static var depth: Int {
        ResolutionContext.current.path.count + AsyncResolutionContext.keys.count
    }

    /// The depth of the initializer of `key` now running (its own key last in the path) if it
    /// is checked rather than built: its asker is `verify()` or an initializer being checked,
    /// and nothing decorates or completes its values (a decorator and an `initCompleted` hook
    /// run on a built value, and `verify()` runs them); `nil` when it is built. Outside
    /// `verify()`, one task-local read.
    static func checkingDepth(of key: DependencyKey, in injector: DependencyInjector) -> Int? {
        // No task-local read while no `verify()` runs in the process (every initializer's
        // and forward's resolve asks).
        if verifying.isZero { return nil }
        let checking = checkingDepths
        guard let asker = checking.last else { return nil }
        let depth = Self.depth
        guard asker == depth - 1 else { return nil }
        if injector.mayDecorate(key), !injector.decorators(of: key).isEmpty { return nil }
        if case .factory(let registration, _)? = injector.lookup(key)?.entry, registration.completion != nil {
            return nil
        }
        return depth
    }

    /// Whether `error` says that the initializer of `key` was checked, not that it failed.
    static func isChecked(_ error: InjectionError, key: DependencyKey) -> Bool {
        guard case .factoryFailed(key, _, let underlying) = error else { return false }
        return underlying is Checked
    }
}

extension DependencyInjector {
    /// Checks an initializer's parameter of `type` (see `InitializerDryRun`): resolves it,
    /// unless it is an initializer that gets checked in its turn.
    func checkParameter<P>(
        _ type: P.Type,
        at position: ParameterPosition,
        of owner: Any.Type,
        site: RegistrationSite
    ) throws(InjectionError) {
        do {
            _ = try parameter(P.self, at: position, of: owner, site: site)
        } catch  where InitializerDryRun.isChecked(error, key: .parameter(P.self)) {
            return
        }
    }
}

extension AsyncResolver {
    /// `DependencyInjector.checkParameter(_:at:of:site:)`, awaited.
    func checkParameter<P: Sendable>(
        _ type: P.Type,
        at position: ParameterPosition,
        of owner: Any.Type,
        site: RegistrationSite
    ) async throws(InjectionError) {
        do {
            _ = try await parameter(P.self, at: position, of: owner, site: site)
        } catch  where InitializerDryRun.isChecked(error, key: .parameter(P.self)) {
            return
        }
    }
}
