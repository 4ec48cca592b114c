/// A kept value that needs closing: its registration's teardown, and when it was kept, for
/// closing in reverse creation order. It travels inside the value's `Cache`, so that whatever
/// moves, restores or drops the value moves, restores or drops its teardown with it.
struct PendingTeardown: @unchecked Sendable {
    // `@unchecked Sendable`: the value is handed from the thread that kept it to the one that
    // closes it, as every kept value of the sync face is handed out; `run` consumes it once.
    let order: UInt64
    let key: DependencyKey
    let value: Any
    let teardown: Registration.Teardown

    /// The teardown of `value`, made by `registration`, if it has one; numbered in creation order.
    /// Only a value its scope keeps strongly has one: the others are their holders'.
    init?(of value: Any, producedBy registration: Registration, order: UInt64? = nil) {
        guard let teardown = registration.teardown else { return nil }
        switch registration.scope {
        case .singleton, .eagerSingleton, .named, .scoped: break
        case .transient, .graph, .weak: return nil
        }
        self.order =
            order
            ?? Self.counter.withLock { counter in
                counter += 1
                return counter
            }
        key = registration.key
        self.value = value
        self.teardown = teardown
    }

    /// Keeps the numbering of every injector in one sequence: creation order across them.
    private static let counter = Locked<UInt64>(0)

    /// Runs the teardown if it is synchronous; the failure, if it threw; `self` back (in
    /// `deferred`) when it must be awaited.
    func runIfSynchronous() -> (failure: TeardownError.Failure?, deferred: PendingTeardown?) {
        guard case .sync(let close) = teardown else { return (nil, self) }
        do {
            try close(value)
            return (nil, nil)
        } catch {
            return (TeardownError.Failure(key: key, error: error), nil)
        }
    }

    /// Runs the teardown, awaiting it if it is asynchronous; the failure, if it threw.
    func run() async -> TeardownError.Failure? {
        do {
            switch teardown {
            case .sync(let close): try close(value)
            case .async(let close): try await close(value)
            }
            return nil
        } catch {
            return TeardownError.Failure(key: key, error: error)
        }
    }
}

extension Cache {
    /// The teardown that travels with a kept value, if any.
    var teardown: PendingTeardown? {
        guard case .strong(_, let teardown) = self else { return nil }
        return teardown
    }
}

extension Entry {
    /// The teardown of the value the entry keeps, if any.
    var teardown: PendingTeardown? {
        guard case .factory(_, let cache) = self else { return nil }
        return cache.teardown
    }
}
