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

    /// How many async builders run in the process (`beginBuilder`, `endBuilder`), with the
    /// bodies of the actor face's `withScope`: while none does, no task has one nor binds the
    /// actor face as `current`, and `isBuilding` and a wrapper's look for the injector bound
    /// outside the face skip their task-local reads, which cost more than the rest of a
    /// `@LazyInject` owner's initialisation.
    private static let running = AtomicCount()

    /// Whether an async builder or a `withScope` body of the actor face may run in this task:
    /// one atomic load, false while none runs in the process.
    static var mayRun: Bool { !running.isZero }

    /// Notes that an async builder starts (see `running`); `endBuilder()` when it returns.
    @inline(__always)
    static func beginBuilder() {
        running.increment()
    }

    /// Notes that an async builder has returned.
    @inline(__always)
    static func endBuilder() {
        running.decrement()
    }

    /// Whether an async builder runs in this task, to capture a wrapper's failure; not
    /// whether it is still open (`capture` tells).
    static var isBuilding: Bool {
        !running.isZero && (current != nil || AsyncResolutionContext.bound.count > 0)
    }

    /// Keeps `failure` for the innermost async builder of this task; `false` when there is
    /// none, or it has returned.
    static func capture(_ failure: WrapperFailure) -> Bool {
        let frames = AsyncResolutionContext.frames
        if let construction = current, frames.count <= construction.depth {
            return construction.capture(failure)
        }
        return frames.capture(failure)
    }

    private func capture(_ failure: WrapperFailure) -> Bool {
        // The wrapper resolved through the thread's own (sync) path: its error's path begins
        // with the key the property asked for.
        let captured = CapturedWrapperFailure(failure: failure, pathIndex: 0)
        return state.withLock { state in
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
        beginBuilder()
        defer { endBuilder() }
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
