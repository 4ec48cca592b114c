/// A kept value that needs closing: its registration's teardown, and when it was kept, for
/// closing in reverse creation order. It travels inside the value's `Cache`, so that whatever
/// moves, restores or drops the value moves, restores or drops its teardown with it. A class,
/// so that each of those moves is a reference's, not a copy of a value in an `Any`. A close
/// (and a reset) also makes one for a kept value without a teardown, which it only releases
/// in its turn (`init(holding:key:order:)`): a run lets go of each record once it has run.
final class PendingTeardown: @unchecked Sendable {
    // `@unchecked Sendable`: immutable; the value is handed from the thread that kept it to
    // the one that closes it, as every kept value of the sync face is handed out, and each
    // teardown is run once.
    let order: UInt64
    let key: DependencyKey
    let value: Any
    /// `nil` for a value a close only releases, in its turn (`init(holding:key:order:)`).
    let teardown: Registration.Teardown?
    /// Where the registration was made: where a failure of the teardown is recorded in a test.
    let site: DeclarationSite?

    /// The teardown of `value`, made by `registration`, if it has one; numbered in creation order.
    /// Only a value its scope keeps strongly has one: the others are their holders'.
    convenience init?(of value: Any, producedBy registration: Registration, order: UInt64? = nil) {
        guard let teardown = registration.teardown, registration.scope.isKeptStrongly else { return nil }
        self.init(
            of: value, key: registration.key, teardown: teardown, site: registration.site.declarationSite, order: order)
    }

    /// The teardown of `value`, kept for `key` (registered at `site`), numbered in creation
    /// order unless `order` is given.
    init(
        of value: Any,
        key: DependencyKey,
        teardown: Registration.Teardown,
        site: DeclarationSite? = nil,
        order: UInt64? = nil
    ) {
        self.order = order ?? CreationOrder.next()
        self.key = key
        self.value = value
        self.teardown = teardown
        self.site = site
    }

    /// `value`, which has no teardown, held by a close until its turn in reverse creation
    /// order (`order`) to be released: released sooner, a value that owns a child would set
    /// off the child's teardowns (on the child's release) before those of values made after it.
    init(holding value: Any, key: DependencyKey, order: UInt64) {
        self.order = order
        self.key = key
        self.value = value
        teardown = nil
        site = nil
    }

    /// Whether it has a teardown to run (not only a value to release in its turn).
    var tearsDown: Bool { teardown != nil }

    /// Runs `teardowns`, `injector`'s, latest first, up to the first asynchronous one; the
    /// failures, and the rest from that one on, which must be awaited (`runAll`), latest first
    /// too: a pool made before a transaction is not closed before the transaction's async
    /// teardown. Each record is let go once its teardown has run (its value released, if it
    /// was the last holder: see `init(holding:key:order:)`); the deferred ones hold theirs until
    /// they run. What runs here sets off for `injector` to await (a released child's teardowns)
    /// is taken in, in its turn (see `ResolutionContext.takeIn(_:of:)`).
    static func runSynchronous(_ teardowns: consuming [PendingTeardown], of injector: DependencyInjector) -> (
        failures: [TeardownError.Failure], deferred: [PendingTeardown]
    ) {
        var failures: [TeardownError.Failure] = []
        var ordered = inCreationOrder(teardowns)
        return ResolutionContext.withCurrent { context in
            let began = context.beginTeardowns(of: injector)
            defer { context.endTeardowns(began: began) }
            while true {
                // Asked before each record, so after the release of the one before.
                if context.hasTakenIn { ordered = inCreationOrder(ordered + context.takeTakenIn()) }
                guard let pending = ordered.popLast() else { return (failures, []) }
                guard let teardown = pending.teardown else { continue }
                switch teardown.runIfSynchronous(on: pending.value, key: pending.key, site: pending.site) {
                case nil: break
                case .failed(let failure)?: failures.append(failure)
                case .asynchronous?: return (failures, [pending] + ordered.reversed())
                }
            }
        }
    }

    /// Runs `teardowns`, `injector`'s, latest first, awaiting the asynchronous ones; the
    /// failures. Each record is let go once its teardown has run, and what that sets off is
    /// taken in, as in `runSynchronous(_:of:)`: on this thread after each await, and in this
    /// task while a teardown awaits (`TeardownRun`: a child that an async teardown lets
    /// go of is torn down in that teardown's turn, and awaited here).
    static func runAll(_ teardowns: consuming [PendingTeardown], of injector: DependencyInjector) async
        -> [TeardownError.Failure]
    {
        var failures: [TeardownError.Failure] = []
        var ordered = consume teardowns  // moved: held here too, each record would outlive its turn
        // With what waits for the injector in an outer run of this task (a teardown that closes it).
        if TeardownRun.mayBeOpen { ordered += TeardownRun.takeWaiting(of: injector) }
        ordered = inCreationOrder(ordered)
        let run = TeardownRun(of: injector)
        await TeardownRun.$current.withValue(run) {
            await runAll(&ordered, failures: &failures, of: injector, in: run)
        }
        // Joined after the last look: run too, in a run of their own.
        let late = run.end()
        if !late.isEmpty { failures += await runAll(late, of: injector) }
        return failures
    }

    /// The loop of `runAll(_:of:)`, inside `run`, bound to the task.
    private static func runAll(
        _ ordered: inout [PendingTeardown],
        failures: inout [TeardownError.Failure],
        of injector: DependencyInjector,
        in run: TeardownRun
    ) async {
        while let pending = ordered.popLast() {
            do {
                switch pending.teardown {
                case .async(let close)?: try await close.tearDown(pending.value)
                case .mainActor(let close)?:
                    // Handed to the main actor unchecked, as every kept value of the sync face is
                    // handed out; this teardown is its only user now.
                    nonisolated(unsafe) let value = pending.value
                    try await close(value)
                case .sync?, nil: break  // below
                }
            } catch {
                failures.append(pending.failure(error))
            }
            // The rest runs on this thread, up to the next record's await, as a run of
            // `injector`'s teardowns: a synchronous teardown, and the record's release.
            let context = ResolutionContext.current
            let began = context.beginTeardowns(of: injector)
            do {
                if case .sync(let close)? = pending.teardown { try close(pending.value) }
            } catch {
                failures.append(pending.failure(error))
            }
            _ = consume pending
            // Read before the run ends: what it took in is its own.
            if context.hasTakenIn { ordered = inCreationOrder(ordered + context.takeTakenIn()) }
            context.endTeardowns(began: began)
            if let joined = run.take() { ordered = inCreationOrder(ordered + joined) }
        }
    }

    /// The failure of this teardown that threw `error`.
    private func failure(_ error: any Error) -> TeardownError.Failure {
        TeardownError.Failure(key: key, error: error, site: site)
    }

    /// Reverse creation order. Teardowns commonly come in creation order (one scope's values,
    /// as it kept them): then no sort.
    static func latestFirst(_ teardowns: [PendingTeardown]) -> ReversedCollection<[PendingTeardown]> {
        inCreationOrder(teardowns).reversed()
    }

    /// `teardowns` in creation order, sorted in place unless they are already (commonly: one
    /// scope's values, as it kept them).
    private static func inCreationOrder(_ teardowns: consuming [PendingTeardown]) -> [PendingTeardown] {
        var isInOrder = true
        var index = 1
        while isInOrder, index < teardowns.count {
            isInOrder = teardowns[index - 1].order < teardowns[index].order
            index += 1
        }
        if !isInOrder { teardowns.sort { $0.order < $1.order } }
        return teardowns
    }
}

extension Cache {
    /// The teardown that travels with a kept value, if any.
    var teardown: PendingTeardown? {
        guard case .strong(_, let teardown, _) = self else { return nil }
        return teardown
    }
}

extension Entry {
    /// The teardown of the value the entry keeps, if any.
    var teardown: PendingTeardown? {
        guard case .factory(_, let cache) = self else { return nil }
        return cache.teardown
    }

    /// What a close or a reset does with the value the entry keeps strongly, in its turn: its
    /// teardown, or, without one, its release (see `PendingTeardown.init(holding:key:order:)`).
    var release: PendingTeardown? {
        guard case .factory(let registration, .strong(let value, let teardown, let order)) = self else { return nil }
        return teardown ?? PendingTeardown(holding: value, key: registration.key, order: order)
    }
}

/// What `Registration.Teardown.runIfSynchronous(on:key:site:)` could not finish.
enum TeardownOutcome {
    case failed(TeardownError.Failure)
    case asynchronous
}

extension Registration.Teardown {
    /// Whether it runs in place wherever a close runs: synchronous, not awaited, not on the
    /// main actor.
    var runsInPlace: Bool {
        guard case .sync = self else { return false }
        return true
    }

    /// Runs this teardown on `value`, kept for `key` (registered at `site`), if it is
    /// synchronous, or runs on the main actor and this is the main queue (a sync close cannot
    /// hop there; elsewhere it is awaited there, as an asynchronous one): `nil` when it ran,
    /// else its failure, or that it must be awaited. The key and site are read only for a
    /// failure: a copy of a key retains its name and origin.
    func runIfSynchronous(
        on value: Any, key: @autoclosure () -> DependencyKey, site: @autoclosure () -> DeclarationSite?
    ) -> TeardownOutcome? {
        guard case .sync(let close) = self else { return runIfOnMainActor(on: value, key: key, site: site) }
        do {
            try close(value)
            return nil
        } catch {
            return .failed(TeardownError.Failure(key: key(), error: error, site: site()))
        }
    }

    /// The rest of `runIfSynchronous(on:key:site:)`, apart, so that a close's loop keeps the
    /// synchronous teardown's run inlined: a main-actor teardown's, on the main queue.
    @inline(never)
    private func runIfOnMainActor(
        on value: Any, key: () -> DependencyKey, site: () -> DeclarationSite?
    ) -> TeardownOutcome? {
        guard case .mainActor(let close) = self, MainQueue.isCurrent else { return .asynchronous }
        // Handed to the main actor unchecked, as `runAll` hands it.
        nonisolated(unsafe) let value = value
        do {
            try MainQueue.run(for: key()) { try close(value) }
            return nil
        } catch {
            return .failed(TeardownError.Failure(key: key(), error: error, site: site()))
        }
    }
}
