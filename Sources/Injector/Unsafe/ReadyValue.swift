/// A ready value in a box of its registered type `T`, so that a resolve of `T` that finds it
/// in a published table copies it out with no cast: the box is known to be a `ReadyValue<T>`.
/// `@LazyInject` keeps its value in one, for the same reason.
@usableFromInline
final class ReadyValue<Value> {
    @usableFromInline let value: Value

    @usableFromInline
    init(_ value: Value) {
        self.value = value
    }
}
