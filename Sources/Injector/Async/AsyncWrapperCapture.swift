/// The failed `@Inject` wrappers initialised in a task while an async builder runs there (an
/// async factory, or `DependencyInjector.make` with an async body), for the builder to throw
/// when it returns: the task-local counterpart of `ResolutionContext.capture`, since an async
/// builder hops threads. The innermost binding is the innermost builder.
final class AsyncWrapperCapture: Sendable {
    @TaskLocal static var current: AsyncWrapperCapture?

    private struct State {
        var failures: [CapturedWrapperFailure] = []
        /// Whether the builder still runs: a task it started may outlive it, and a failure
        /// there is no longer the builder's (it is reported to the test scope instead).
        var isOpen = true
    }

    private let state = Locked(State())

    /// Keeps `failure` for the builder; `false` once the builder has returned.
    func capture(_ failure: WrapperFailure) -> Bool {
        // The wrapper resolved through the thread's own (sync) path: its error's path begins
        // with the key the property asked for; the builder adds its own keys before it.
        let captured = CapturedWrapperFailure(failure: failure, pathIndex: 0)
        return state.withLock { state in
            guard state.isOpen else { return false }
            state.failures.append(captured)
            return true
        }
    }

    /// Ends the capture: the first failure captured, if any.
    func close() -> CapturedWrapperFailure? {
        // The failures are released after the unlock (a failure holds only library objects,
        // but the rule is kept).
        let failures = state.withLock { state in
            state.isOpen = false
            return exchange(&state.failures, with: [])
        }
        return failures.first
    }

    /// Runs `body` as a builder in this task; throws the first failure of a wrapper initialised
    /// meanwhile, with `keys` (the builder's resolution path, if any) before its path.
    static func build<Value>(
        after keys: @autoclosure () -> [DependencyKey] = [],
        isolation: isolated (any Actor)? = #isolation,
        _ body: () async throws -> Value
    ) async throws -> Value {
        let capture = AsyncWrapperCapture()
        let value: Value
        do {
            value = try await $current.withValue(capture, operation: body)
        } catch {
            // Closed on this path too: a task the body started may outlive it, and its
            // failures are no longer this builder's to throw (they are reported instead).
            _ = capture.close()
            throw error
        }
        if let failure = capture.close() {
            let prefix = keys()
            throw failure.error(building: value).withPath { $0.insert(contentsOf: prefix, at: 0) }
        }
        return value
    }
}
