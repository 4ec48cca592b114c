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
            return try await resolveApart(key, as: T.self, observed: false, after: frames, ifAbsent: ifAbsent)
        }
        let request = ObservedRequest()
        let start = DispatchTime.now().uptimeNanoseconds
        do {
            let value = try await request.observing { () async throws(InjectionError) -> T in
                try await resolveApart(key, as: T.self, observed: false, after: frames, ifAbsent: ifAbsent)
            }
            core.notify(
                observer, of: key, resolvers: frames.keys, outcome: request.madeValue ? .created : .cached,
                since: start)
            return value
        } catch {
            core.notify(observer, of: key, resolvers: frames.keys, outcome: .failed(error), since: start)
            throw error
        }
    }
}

/// What an observed resolve of the actor face learns of its own request, for its event:
/// whether it made the value (ran the factory, or started the creation that runs it), told by
/// `produce` as it decides; else it found the value made, or being made by another resolve (a
/// cache hit, as on the sync face). (Guessed before the resolve, two tasks that asked at once
/// were both told `created`.) A task that only waits runs no factory of its own, so whatever
/// this task makes while the request runs is the request's.
final class ObservedRequest: Sendable {
    @TaskLocal private static var current: ObservedRequest?
    /// How many observed resolves run now: while none does, `produce` reads no task-local.
    private static let running = AtomicCount()

    /// Whether the resolve made the value; a lock, since a creation it started may run on.
    private let made = Locked(false)

    var madeValue: Bool { made.withLock { $0 } }

    /// Runs `resolve` as the observed request. What it makes, an enclosing observed request of
    /// this task made too: a nested resolve runs in this task only for the enclosing one's own
    /// value (a `T?` resolving its `T`) or in its factory's run, which made that value anyway.
    func observing<T>(_ resolve: () async throws(InjectionError) -> T) async throws(InjectionError) -> T {
        Self.running.increment()
        defer { Self.running.decrement() }
        let enclosing = Self.current
        defer { if let enclosing, madeValue { enclosing.made.withLock { $0 = true } } }
        let outcome = await Self.$current.withValue(self) { () async -> Result<T, InjectionError> in
            do throws(InjectionError) {
                return .success(try await resolve())
            } catch {
                return .failure(error)
            }
        }
        return try outcome.get()
    }

    /// Notes, for the observed request of this task if any, that it makes the value.
    @inline(__always)
    static func noteMade() {
        guard !running.isZero else { return }
        current?.made.withLock { $0 = true }
    }

    /// `make`, a synchronous factory's run by the core for an actor-face resolve; noted as the
    /// observed request's making when a factory ran on this thread meanwhile.
    @inline(__always)
    static func noting<T>(_ make: () throws(InjectionError) -> T) throws(InjectionError) -> T {
        guard !running.isZero else { return try make() }
        let context = ResolutionContext.current
        let runs = context.factoryRuns
        let value = try make()
        if context.factoryRuns != runs { noteMade() }
        return value
    }
}
