extension DependencyInjector {
    /// A value stored or produced for `key` as the `T` it was registered as. `key` is built
    /// only for the error, which a later read of a `@LazyInject` would otherwise pay for.
    ///
    /// Passing the `Any` to `opened` opens it, so that `Value` is the value's own type.
    @inline(__always)
    static func cast<T>(_ value: Any, to type: T.Type, key: @autoclosure () -> DependencyKey) throws(InjectionError)
        -> T
    {
        try opened(value, as: type, key: key)
    }

    /// `value` as a `T`, straight into the result: when the value's own type is `T` itself (a
    /// concrete type registered as itself, the common case), the conversion is the identity
    /// and needs no run-time cast; otherwise (`T` is a protocol the value conforms to) the
    /// runtime casts. Neither returns an optional `T`, whose type metadata unspecialised
    /// generic code would look up on every call.
    private static func opened<T, Value>(
        _ value: Value,
        as type: T.Type,
        key: () -> DependencyKey
    ) throws(InjectionError) -> T {
        // Safe: `Value` and `T` were just checked to be the same type, so this converts nothing.
        // It only tells the compiler what the check proved.
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
