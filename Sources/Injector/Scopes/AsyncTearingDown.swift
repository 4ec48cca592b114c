/// A teardown registered with the actor face, as a registration keeps it; its `close()`
/// awaits it.
///
/// A conformance, not a closure that wraps the user's, for the reason `AsyncMaking` gives: the
/// wrapper, made in a generic function, was called through a partial-application thunk, an
/// async call of its own (a frame and an executor check more per value torn down). Its method
/// is inlined into the witness that the protocol calls, as `AsyncMaking`'s are.
protocol AsyncTearingDown: AnyObject, Sendable {
    /// Tears down `value`, a value of the registration.
    func tearDown(_ value: Any) async throws
}

/// `AsyncTearingDown` for `AsyncRegistered.teardown(_:)`: a value of another type (a
/// stand-in's, which the registration's teardown also closes) is passed over, as the sync
/// face's teardown passes it over.
final class AsyncTeardown<Value: Sendable>: AsyncTearingDown {
    let close: @Sendable (Value) async throws -> Void

    init(close: @escaping @Sendable (Value) async throws -> Void) {
        self.close = close
    }

    @inline(__always)
    func tearDown(_ value: Any) async throws {
        try await DependencyInjector.call(close, with: value)
    }
}

/// `AsyncTearingDown` for a registration with run-time arguments: its values are cast to
/// `Value`, and a value of another type fails the teardown. Apart from `AsyncTeardown`: one
/// class with an optional key slowed every request on the actor face.
final class AsyncCastingTeardown<Value: Sendable>: AsyncTearingDown {
    let close: @Sendable (Value) async throws -> Void
    /// The registration's key, for the cast's error.
    let key: DependencyKey

    init(close: @escaping @Sendable (Value) async throws -> Void, key: DependencyKey) {
        self.close = close
        self.key = key
    }

    @inline(__always)
    func tearDown(_ value: Any) async throws {
        try await close(DependencyInjector.cast(value, to: Value.self, key: key))
    }
}
