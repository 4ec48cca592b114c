extension DependencyInjector {
    /// A value stored or produced for `key` as the `T` it was registered as. `key` is built
    /// only for the error. Passing the `Any` to `opened` opens it: `Value` is its own type.
    @inline(__always)
    static func cast<T>(_ value: Any, to type: T.Type, key: @autoclosure () -> DependencyKey) throws(InjectionError)
        -> T
    {
        try opened(value, as: type, key: key)
    }

    /// `value` as a `T`, straight into the result (no `Optional<T>`): the identity when its
    /// type is `T` (the common case), else a run-time cast (`T` is a protocol it conforms to).
    private static func opened<T, Value>(
        _ value: Value,
        as type: T.Type,
        key: () -> DependencyKey
    ) throws(InjectionError) -> T {
        // Safe: `Value` and `T` were just checked to be the same type.
        if Value.self == T.self { return unsafeBitCast(value, to: T.self) }
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
