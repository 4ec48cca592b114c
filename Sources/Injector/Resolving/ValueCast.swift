extension DependencyInjector {
    /// A value stored or produced for `key` as the `T` it was registered as. `key` is built
    /// only for the error. Passing the `Any` to `opened` opens it: `Value` is its own type.
    @inline(__always)
    static func cast<T>(_ value: Any, to type: T.Type, key: @autoclosure () -> DependencyKey) throws(InjectionError)
        -> T
    {
        try opened(value, as: type, key: key)
    }

    /// `cast(_:to:key:)` of a value made as `any Sendable` (an async factory's), opened as it
    /// is: converted to the `Any` of the other, it was copied into a new container per value
    /// an async run made.
    @inline(__always)
    static func cast<T>(_ value: any Sendable, to type: T.Type, key: @autoclosure () -> DependencyKey)
        throws(InjectionError) -> T
    {
        try opened(value, as: type, key: key)
    }

    /// `value` as a `T`, straight into the result (no `Optional<T>`): the identity when its
    /// type is `T` (the common case), else a run-time cast (`T` is a protocol it conforms to).
    @inline(__always)
    private static func opened<T, Value>(
        _ value: Value,
        as type: T.Type,
        key: () -> DependencyKey
    ) throws(InjectionError) -> T {
        // Safe: `Value` and `T` were just checked to be the same type.
        if Value.self == T.self { return unsafeBitCast(value, to: T.self) }
        return try openedCasting(value, as: type, key: key)
    }

    /// The rest of `opened(_:as:key:)`, apart: a run-time cast, or the error.
    @inline(never)
    private static func openedCasting<T, Value>(
        _ value: Value,
        as type: T.Type,
        key: () -> DependencyKey
    ) throws(InjectionError) -> T {
        switch value {
        case let typed as T:
            return typed
        default:
            // Unreachable while keys are type identities; reported rather than trapped.
            let key = key()
            throw .factoryFailed(
                key,
                path: ResolutionContext.current.path + [key],
                underlying: UnexpectedValueType(expected: key.type, actual: Value.self)
            )
        }
    }
}

extension DependencyInjector {
    /// Calls `body` with `value` as the `T` it was kept as, and does nothing when it is not
    /// one. No `Optional<T>`: unspecialised, as a registration's teardown is, each use looks up
    /// its metadata, which cost more than the rest of the teardown. Inlined, as the next one
    /// is, into the teardown that calls it: two calls less a value in a close.
    @inline(__always)
    static func call<T>(_ body: (T) throws -> Void, with value: Any) rethrows {
        try call(body, withOpened: value)
    }

    /// ``call(_:with:)`` for an asynchronous `body`. Inlined, as the next one is, into the
    /// teardown that calls it: each async call is a frame and two executor checks.
    @inline(__always)
    static func call<T>(_ body: (T) async throws -> Void, with value: Any) async rethrows {
        try await call(body, withOpened: value)
    }

    @inline(__always)
    private static func call<T, Value>(_ body: (T) throws -> Void, withOpened value: Value) rethrows {
        // Safe: `Value` and `T` were just checked to be the same type.
        if Value.self == T.self { return try body(unsafeBitCast(value, to: T.self)) }
        try callCasting(body, with: value)
    }

    @inline(__always)
    private static func call<T, Value>(_ body: (T) async throws -> Void, withOpened value: Value) async rethrows {
        if Value.self == T.self { return try await body(unsafeBitCast(value, to: T.self)) }
        try await callCasting(body, with: value)
    }

    /// The rest of `call(_:withOpened:)`, apart: only here is an `Optional<T>` looked up.
    @inline(never)
    private static func callCasting<T, Value>(_ body: (T) throws -> Void, with value: Value) rethrows {
        if let typed = value as? T { try body(typed) }
    }

    @inline(never)
    private static func callCasting<T, Value>(_ body: (T) async throws -> Void, with value: Value) async rethrows {
        if let typed = value as? T { try await body(typed) }
    }
}
