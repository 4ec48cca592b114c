/// A ready value in a box of its registered type `T`, so that a resolve of `T` that finds it
/// in a published table copies it out with no cast: the box is known to be a `ReadyValue<T>`.
/// `@LazyInject` keeps its value in one, for the same reason.
@usableFromInline
class ReadyValue<Value> {
    @usableFromInline let value: Value

    @usableFromInline
    init(_ value: Value) {
        self.value = value
    }
}

/// The box an assignment to a `@LazyInject` property publishes: it holds the box it replaced,
/// which a read on another thread may still be copying from, so that no box the property
/// published is released before the property (see `PublishedValue`).
final class ReplacingValue<Value>: ReadyValue<Value> {
    /// The box this one replaced: set before this one is published, taken only by `deinit`.
    private var replaced: AnyObject?

    init(_ value: Value, replacing replaced: AnyObject?) {
        self.replaced = replaced
        super.init(value)
    }

    deinit {
        // The chain is released in a loop, not by one nested `deinit` per assignment: a
        // property assigned 100,000 times would release it that deep.
        var next = replaced.take()
        while var box = next.take() as? ReplacingValue<Value>, isKnownUniquelyReferenced(&box) {
            next = box.replaced.take()
        }
    }
}
