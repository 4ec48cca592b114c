/// Where a failed `@Inject` wrapper initialised in a task goes, when no builder runs on the
/// thread (`ResolutionContext.capture`): to the innermost async builder of the task, which
/// throws it when it returns. The async builders are the runs of async factories
/// (`AsyncResolutionContext.Frames.capture`, bound with the frames each run binds anyway) and
/// `DependencyInjector.make` with an async body: an instance of this class, bound while its
/// body runs.
final class AsyncWrapperCapture: Sendable {
    /// The async `make` running in this task, if any.
    @TaskLocal static var current: AsyncWrapperCapture?

    private struct State {
        var failure: CapturedWrapperFailure?
        /// Whether the body still runs: a task it started may outlive it, and a failure
        /// there is no longer the builder's (it is reported to the test scope instead).
        var isOpen = true
    }

    private let state = Locked(State())
    /// How many factory runs were in progress in the task when the body began: a run deeper
    /// than that was started by the body, and is the innermost builder.
    private let depth: Int

    private init(depth: Int) {
        self.depth = depth
    }

    /// How many async builders run in the process, each counted while it runs: while none
    /// does, no task has one, and `isBuilding` skips its two task-local reads, which cost more
    /// than the rest of a `@LazyInject` owner's initialisation.
    static let builders = AtomicCount()

    /// How many bodies of the actor face's `withScope` run in the process: apart from
    /// `builders`, so that a server's scopes cost `isBuilding` nothing.
    static let scopeBodies = AtomicCount()

    /// Whether the actor face may be bound as `current` in this task (an async builder or a
    /// `withScope` body runs in the process): two atomic loads, false while neither runs, when
    /// a wrapper need not read a task-local to look for the injector bound outside the face.
    static var mayRun: Bool { !builders.isZero || !scopeBodies.isZero }

    /// Whether an async builder runs in this task, to capture a wrapper's failure; not
    /// whether it is still open (`capture` tells).
    static var isBuilding: Bool {
        !builders.isZero && (current != nil || AsyncResolutionContext.bound.frames.count > 0)
    }

    /// Keeps `failure` for the innermost async builder of this task; `false` when there is
    /// none, or it has returned.
    static func capture(_ failure: WrapperFailure) -> Bool {
        // The wrapper resolved through the thread's own (sync) path: its error's path begins
        // with the key the property asked for (a run adds its keys before it), unless the
        // resolve read the task's runs and put their keys first (a captive value's check does).
        let frames = AsyncResolutionContext.frames
        let keys = frames.keys
        let captured = CapturedWrapperFailure(
            failure: failure, pathIndex: failure.error.path.starts(with: keys) ? keys.count : 0)
        if let construction = current, frames.count <= construction.depth {
            return construction.capture(captured)
        }
        return frames.capture(captured)
    }

    private func capture(_ captured: CapturedWrapperFailure) -> Bool {
        state.withLock { state in
            guard state.isOpen else { return false }
            if state.failure == nil { state.failure = captured }
            return true
        }
    }

    /// Ends the capture: the first failure captured, if any (released by the caller, after
    /// the unlock).
    private func close() -> CapturedWrapperFailure? {
        state.withLock { state in
            state.isOpen = false
            return state.failure.take()
        }
    }

    /// Runs `body` as a builder in this task; throws the first failure of a wrapper initialised
    /// meanwhile, as the error of the value `body` made.
    static func build<Value>(
        isolation: isolated (any Actor)? = #isolation,
        _ body: () async throws -> Value
    ) async throws -> Value {
        builders.increment()
        defer { builders.decrement() }
        let capture = AsyncWrapperCapture(depth: AsyncResolutionContext.frames.count)
        let value: Value
        do {
            value = try await $current.withValue(capture, operation: body)
        } catch {
            // Closed on this path too: a task the body started may outlive it, and its
            // failures are no longer this builder's to throw (they are reported instead).
            _ = capture.close()
            throw error
        }
        if let failure = capture.close() { throw failure.error(building: value) }
        return value
    }
}
