import Dispatch

extension AsyncDependencyInjector {
    /// The async form of `DependencyInjector.instrumentedResolve`.
    nonisolated func instrumentedResolve<T: Sendable>(
        _ key: DependencyKey,
        as type: T.Type,
        after frames: AsyncResolutionContext.Frames,
        ifAbsent: (DependencyKey) async throws(InjectionError) -> T
    ) async throws(InjectionError) -> T {
        guard let observer = core.instrument(key, resolvedBy: frames.innermostKey) else {
            return try await resolve(key, as: T.self, observed: false, after: frames, ifAbsent: ifAbsent)
        }
        let created = runsFactory(for: key, after: frames)
        let start = DispatchTime.now().uptimeNanoseconds
        do {
            let value = try await resolve(key, as: T.self, observed: false, after: frames, ifAbsent: ifAbsent)
            core.notify(
                observer, of: key, resolvers: frames.keys, outcome: created ? .created : .cached, since: start)
            return value
        } catch {
            core.notify(observer, of: key, resolvers: frames.keys, outcome: .failed(error), since: start)
            throw error
        }
    }

    /// Whether a resolve of `key` that starts now runs a factory itself (an event's `created`):
    /// asked beforehand, since an async resolve may hop threads. Waiting for another
    /// resolve's creation is a cache hit, as on the sync face; so is a `.graph` value the
    /// resolve (after `frames`) shares already, or makes in another of its tasks.
    private nonisolated func runsFactory(for key: DependencyKey, after frames: AsyncResolutionContext.Frames) -> Bool {
        guard case .pending(let registration, let holder, let keeper) = core.locate(key) else { return false }
        if registration.scope == .graph {
            return frames.shared?.hasValueOrCreation(madeBy: registration, builtBy: core) != true
        }
        guard registration.scope.isKept else { return true }
        // An opened scope keeps every scoped value in its one store, its own registrations' too.
        if registration.isScoped, let scoped = keeper.keptValues {
            return scoped.withLock { $0.value(of: registration) == nil && !$0.isCreating(registration) }
        }
        return SingletonCreation.cached(registration, heldBy: holder, keptBy: keeper) == nil
            && AsyncSingletonCreation.running(registration, keptBy: keeper) == nil
            && keeper.keptValues?.withLock({ $0.isCreating(registration) }) != true
    }
}
