/// Why a resolve found no value of the requested type ready to hand out.
///
/// The registration to run travels in an `inout` parameter beside the error, not in it, so
/// that throwing, catching and matching the error for a key held by the injector asked (the
/// common case, and every transient's) costs no reference counting. Only a key found in an
/// ancestor, or an inheriting keeper, puts an injector in the error.
enum Miss: Error {
    /// Nothing is registered under the key, here or in an ancestor.
    case absent
    /// A factory has to run first: a transient, or a singleton not created yet. The thrower
    /// has stored the registration in its `pending` parameter. `holder` is the ancestor that
    /// holds it, or `nil` when the injector asked holds it itself.
    case pending(holder: DependencyInjector?)
    /// The stored value is not of the requested type. Unreachable while keys are type
    /// identities; reported rather than trapped.
    case mismatch(any Any.Type)
    /// The injector is instrumented (observed or recording its graph); the lookup stopped.
    case instrumented
    /// Not in `keeper`, which builds and keeps what it inherits (see `InheritedSingletons`).
    case inherited(keeper: DependencyInjector)
}

/// `value` as a `T`.
///
/// Call it with an `Any` held in a local: passing the existential to the generic `Value` opens
/// it. When the value's own type is `T` itself (a concrete type registered as itself, the
/// common case), the conversion is the identity and needs no run-time cast; otherwise (`T` is
/// a protocol the value conforms to) the runtime casts, straight into the result: `as? T`
/// would build an `Optional<T>`, whose metadata a generic function looks up on every call.
func cast<T, Value>(_ value: Value, to type: T.Type) throws(Miss) -> T {
    // Safe: `Value` and `T` were just checked to be the same type, so this converts nothing.
    // It only tells the compiler what the check proved.
    if Value.self == T.self { return unsafeBitCast(value, to: T.self) }
    switch value {
    case let typed as T:
        return typed
    default:
        throw .mismatch(Value.self)
    }
}
