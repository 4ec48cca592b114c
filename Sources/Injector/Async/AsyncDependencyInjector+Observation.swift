import Dispatch

extension AsyncDependencyInjector {
    /// The async form of `DependencyInjector.instrumentedResolve`: records the edge from the
    /// resolving factory and tells the observer, through the core's own instrumentation.
    func observedResolve<T: Sendable>(
        _ key: DependencyKey,
        as type: T.Type,
        ifAbsent: (DependencyKey) async throws(InjectionError) -> T
    ) async throws(InjectionError) -> T {
        let frames = AsyncResolutionPath.frames
        guard let observer = core.instrument(key, resolvedBy: frames.last?.registration.key) else {
            return try await resolve(key, as: T.self, observed: false, ifAbsent: ifAbsent)
        }
        // A factory runs unless the value is ready now (the sync face counts the runs on its
        // thread; an async resolve may hop threads).
        var created = true
        if case .ready = core.locate(key) { created = false }
        let start = DispatchTime.now().uptimeNanoseconds
        let result: Result<T, InjectionError>
        do {
            result = .success(try await resolve(key, as: T.self, observed: false, ifAbsent: ifAbsent))
        } catch {
            result = .failure(error)
        }
        return try core.notify(
            observer, of: key, path: frames.map(\.registration.key) + [key], result: result, created: created,
            since: start)
    }
}
