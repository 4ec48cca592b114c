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

    /// What an initializer being checked throws once its parameters resolved: it was checked,
    /// not built. `verify()` takes it for a success.
    struct Checked: Error, CustomStringConvertible {
        var description: String { "checked by verify() without calling the initializer" }
    }

    /// Whether the initializer now running at `depth` (its own key last in the path) is
    /// checked rather than built.
    static func isChecking(atDepth depth: Int) -> Bool {
        checkingDepths.last == depth - 1
    }

    /// Whether `error` says that an initializer was checked, not that it failed.
    static func isChecked(_ error: InjectionError) -> Bool {
        guard case .factoryFailed(_, _, let underlying) = error else { return false }
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
        } catch  where InitializerDryRun.isChecked(error) {
            return
        }
    }
}

extension AsyncDependencyInjector {
    /// `DependencyInjector.checkParameter(_:at:of:site:)`, awaited.
    nonisolated func checkParameter<P: Sendable>(
        _ type: P.Type,
        at position: ParameterPosition,
        of owner: Any.Type,
        site: RegistrationSite
    ) async throws(InjectionError) {
        do {
            _ = try await parameter(P.self, at: position, of: owner, site: site)
        } catch  where InitializerDryRun.isChecked(error) {
            return
        }
    }
}
