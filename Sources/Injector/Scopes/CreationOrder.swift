/// The process's one sequence of creations, across every injector: a kept value takes its
/// place in it (teardowns run latest first, one attached later included), and so does a run of an async
/// factory that other resolves may await (its `AsyncSingletonCreation.Number`, which names it
/// in the wait graph). Counted without a lock: a request takes a number per scoped value.
enum CreationOrder {
    /// The next number.
    static func next() -> UInt64 {
        created.incremented().map(UInt64.init) ?? nextBeforeAtomics()
    }

    private static let created = AtomicCount()

    /// The next number where `created` cannot count (before `Synchronization`), under a lock.
    private static func nextBeforeAtomics() -> UInt64 {
        counter.withLock { counter in
            counter += 1
            return counter
        }
    }

    private static let counter = Locked<UInt64>(0)
}
