/// The values an opened scope keeps for the `.scoped` registrations of its ancestors, and the
/// creations of them running now, on the sync face, which claim their place here.
///
/// A request keeps a handful of values and lives for microseconds, so this is a short list
/// searched in order, not a dictionary: hashing a key and a holder cost more than the search.
/// A claim lets the first resolve create the value under this scope's lock alone, without the
/// process-wide `SingletonCreation` lock; only a resolve that finds the value being created by
/// another thread goes there, to wait and to take part in the cycle check (see
/// `DependencyInjector.scopedValue(of:heldBy:context:)`).
struct ScopedValues {
    /// A value being created by a thread (whose context it is), for the registration whose
    /// identity it holds; `isAwaited` once a thread waits for it in `SingletonCreation`, which
    /// the creator must then wake.
    struct Claim {
        let creator: ResolutionContext
        let registration: ObjectIdentifier
        var isAwaited = false
    }

    /// A kept value, the registration that made it, and its place in creation order (for a
    /// teardown, see `PendingTeardown`). Kept in its slot as it is: a request's values cost no
    /// object each, and a teardown is made only for a value that has one, when it is let go.
    struct Kept {
        let registration: Registration
        let value: Any
        let order: UInt64

        /// The teardown of the value, if its registration has one.
        var teardown: PendingTeardown? {
            PendingTeardown(of: value, producedBy: registration, order: order)
        }
    }

    /// One key of one ancestor: its kept value, its running creation, or both (a value of a
    /// replaced registration while the new one's value is created).
    fileprivate struct Slot {
        let key: DependencyKey
        let holder: ObjectIdentifier
        var kept: Kept?
        var claim: Claim?
    }

    private var slots: [Slot] = []
    /// How many slots hold a claim: a close or a reset with none moves the whole list out.
    private var claims = 0
    /// Whether the injector's `close()` has begun: nothing is kept from then on.
    var isClosed = false
    /// Where `openScope` was called, for the report of a scope released without `close()`;
    /// `nil` for the scopes the library opens and closes itself (tests, `verify()`, previews).
    let openedAt: DeclarationSite?

    init(openedAt: DeclarationSite?) {
        self.openedAt = openedAt
    }

    /// Where `registration`'s key held by `holder` is.
    private func index(of registration: Registration, heldBy holder: DependencyInjector) -> Int? {
        index(of: registration.key, heldBy: holder)
    }

    /// Where `key` held by `holder` is, searched in place (no slot copied).
    private func index(of key: DependencyKey, heldBy holder: DependencyInjector) -> Int? {
        let holder = ObjectIdentifier(holder)
        var index = slots.startIndex
        while index < slots.endIndex {
            if slots[index].holder == holder, slots[index].key == key { return index }
            index += 1
        }
        return nil
    }

    /// The value kept for `registration`, `.closed` when none is and none will be.
    func kept(_ registration: Registration, heldBy holder: DependencyInjector) -> SingletonCreation.Start? {
        if let value = value(of: registration, heldBy: holder) { return .ready(value) }
        return isClosed ? .closed : nil
    }

    func value(of registration: Registration, heldBy holder: DependencyInjector) -> Any? {
        guard let index = index(of: registration, heldBy: holder), let kept = slots[index].kept,
            kept.registration === registration
        else { return nil }
        return kept.value
    }

    /// What a resolve on the thread of `context` finds for `registration`'s value.
    enum Claimed {
        /// The value, kept.
        case ready(Any)
        /// The place is this thread's now: it creates the value, then calls `keep` or `release`.
        case claimed
        /// Another thread is creating it, claimed as `claim` says.
        case running(Claim)
        /// This thread is creating it already: the factory asked for its own value.
        case cycle
        /// The scope is closed: nothing is built for it.
        case closed
    }

    /// The kept value of `registration` (held by `holder`), or a claim on its creation for the
    /// thread of `context`.
    mutating func claim(
        _ registration: Registration,
        heldBy holder: DependencyInjector,
        by context: ResolutionContext
    ) -> Claimed {
        let claim = Claim(creator: context, registration: ObjectIdentifier(registration))
        guard let index = index(of: registration, heldBy: holder) else {
            if isClosed { return .closed }
            append(Slot(key: registration.key, holder: ObjectIdentifier(holder), kept: nil, claim: claim))
            claims += 1
            return .claimed
        }
        if let kept = slots[index].kept, kept.registration === registration { return .ready(kept.value) }
        if let running = slots[index].claim { return running.creator === context ? .cycle : .running(running) }
        if isClosed { return .closed }
        slots[index].claim = claim
        claims += 1
        return .claimed
    }

    /// The thread creating the value `claim` names, if it still is, marked as awaited, so that
    /// it wakes its waiters when it is done.
    mutating func awaitedCreator(of claim: Claim, by registration: Registration, heldBy holder: DependencyInjector)
        -> ResolutionContext?
    {
        guard let index = index(of: registration, heldBy: holder), let running = slots[index].claim,
            running.registration == claim.registration, running.creator === claim.creator
        else { return nil }
        slots[index].claim?.isAwaited = true
        return claim.creator
    }

    /// Keeps `value` as what `registration` produced, unless closed, ending this thread's claim
    /// if `claimed`. Returns what it replaces (for the caller to tear down and release after
    /// the unlock), and whether a thread waits for the claim's end.
    mutating func keep(
        _ value: Any,
        producedBy registration: Registration,
        heldBy holder: DependencyInjector,
        claimed: Bool = false
    ) -> (replaced: Kept?, isAwaited: Bool) {
        var kept: Kept?
        if !isClosed {
            let order = registration.teardown == nil ? 0 : PendingTeardown.nextOrder()
            kept = Kept(registration: registration, value: value, order: order)
        }
        guard let index = index(of: registration, heldBy: holder) else {
            if let kept { append(Slot(key: registration.key, holder: ObjectIdentifier(holder), kept: kept)) }
            return (nil, false)
        }
        let isAwaited = claimed ? endClaim(at: index) : false
        guard let kept else {
            removeIfEmpty(at: index)
            return (nil, isAwaited)
        }
        return (exchange(&slots[index].kept, with: kept), isAwaited)
    }

    /// Ends this thread's claim on `registration`'s value, whose factory failed; returns
    /// whether a thread waits for it.
    mutating func release(claimOf registration: Registration, heldBy holder: DependencyInjector) -> Bool {
        guard let index = index(of: registration, heldBy: holder) else { return false }
        let isAwaited = endClaim(at: index)
        removeIfEmpty(at: index)
        return isAwaited
    }

    /// Adds `slot`; the first makes room for a request's few values, without a growth (a
    /// scope that keeps nothing allocates nothing).
    private mutating func append(_ slot: Slot) {
        if slots.capacity == 0 { slots.reserveCapacity(4) }
        slots.append(slot)
    }

    private mutating func endClaim(at index: Int) -> Bool {
        guard let claim = exchange(&slots[index].claim, with: nil) else { return false }
        claims -= 1
        return claim.isAwaited
    }

    private mutating func removeIfEmpty(at index: Int) {
        if slots[index].kept == nil, slots[index].claim == nil { slots.remove(at: index) }
    }

    /// Forgets the value kept for `key` held by `holder` (a reset of that key), which it
    /// returns. A running creation goes on.
    mutating func dropValue(of key: DependencyKey, heldBy holder: DependencyInjector) -> Kept? {
        guard let index = index(of: key, heldBy: holder) else { return nil }
        defer { removeIfEmpty(at: index) }
        return exchange(&slots[index].kept, with: nil)
    }

    /// Forgets every kept value (a reset of `.scoped`), which it returns. Running creations
    /// go on.
    mutating func dropValues() -> Dropped {
        guard claims > 0 else { return Dropped(slots: exchange(&slots, with: [])) }
        var dropped: [Slot] = []
        for index in slots.indices where slots[index].kept != nil {
            dropped.append(Slot(key: slots[index].key, holder: slots[index].holder, kept: slots[index].kept))
            slots[index].kept = nil
        }
        slots.removeAll { $0.claim == nil }
        return Dropped(slots: dropped)
    }

    /// Keeps nothing from now on; returns every kept value, for the caller to tear down and
    /// release after the unlock. Running creations go on, and are refused when they try to
    /// keep their values.
    mutating func close() -> Dropped {
        isClosed = true
        return dropValues()
    }

    /// Values let go by a reset or a close: released with this, after the unlock.
    struct Dropped {
        fileprivate let slots: [Slot]

        /// Adds the teardowns of the values, in the order they were kept, to `teardowns`.
        func appendTeardowns(to teardowns: inout [PendingTeardown]) {
            teardowns.reserveCapacity(teardowns.count + slots.count)
            for index in slots.indices {
                if let teardown = slots[index].kept?.teardown { teardowns.append(teardown) }
            }
        }

        /// The teardowns of the values.
        var teardowns: [PendingTeardown] {
            var teardowns: [PendingTeardown] = []
            appendTeardowns(to: &teardowns)
            return teardowns
        }
    }
}

extension DependencyInjector {
    /// The value of `registration`, a `.scoped` one held by `holder`, an ancestor, that this
    /// opened scope keeps: created now by this thread if need be, once for the scope however
    /// many threads ask at once. `nil` when `registration` is no longer the one `holder`
    /// stores (replaced or removed meanwhile): the caller looks the key up again.
    ///
    /// The creation claims its place in the scope's own list (`ScopedValues`), so that the
    /// common case, no other thread creating it, takes this scope's lock alone. A thread that
    /// finds another creating the value waits in `SingletonCreation`, which registers the
    /// creator for its cycle check, as it does for a singleton's creator; the creator wakes it.
    @inline(never)
    func scopedValue(
        of registration: Registration,
        heldBy holder: DependencyInjector,
        in scoped: Locked<ScopedValues>,
        context: ResolutionContext
    ) throws(InjectionError) -> Any? {
        while true {
            switch scoped.withLock({ $0.claim(registration, heldBy: holder, by: context) }) {
            case .ready(let value):
                return value
            case .cycle:
                throw .circularDependency(path: context.path + [registration.key])
            case .closed:
                throw .closed(registration.key, path: context.path + [registration.key])
            case .running(let claim):
                try SingletonCreation.shared.wait(
                    for: SingletonCreation.Key(owner: ObjectIdentifier(self), registration: claim.registration),
                    of: registration.key, context: context
                ) {
                    scoped.withLock { $0.awaitedCreator(of: claim, by: registration, heldBy: holder) }
                }
                // Re-registered while we waited: the value just made may be the old one's.
                guard holder.stores(registration) else { return nil }
            case .claimed:
                // The caller found `registration` stored just now (the walk, or
                // `ancestor(storing:)`), or it was checked after the wait below. One replaced
                // meanwhile makes a value that the new registration's first resolve replaces.
                return try createScopedValue(of: registration, heldBy: holder, in: scoped, context: context)
            }
        }
    }

    /// The value of `registration`, a `.scoped` one that this injector's resolve of `key`
    /// found in an ancestor's published table (see `PublishedTable.slotPassingMissesUp`), as a
    /// `T`: this opened scope keeps it, so the walk's answer is known without the walk. Any
    /// other case (this injector opens no scope, the registration was replaced meanwhile, the
    /// resolve shares values) takes the walk.
    @inline(never)
    func scopedValue<T>(found registration: Registration, as type: T.Type, key: DependencyKey)
        throws(InjectionError) -> T
    {
        let context = ResolutionContext.current
        if let scoped = scopedValues, !context.isSharing, let holder = ancestor(storing: registration) {
            try checkScoped(registration, keptBy: self, in: context)
            if let value = try scopedValue(of: registration, heldBy: holder, in: scoped, context: context) {
                return try Self.cast(value, to: T.self, key: key)
            }
        }
        return try resolve(key, as: T.self, after: nil, instrumented: false) { key throws(InjectionError) in
            try unregistered(key, as: T.self)
        }
    }

    /// The nearest ancestor that stores `registration`, if any.
    private func ancestor(storing registration: Registration) -> DependencyInjector? {
        var ancestor = parent
        while let injector = ancestor {
            if injector.stores(registration) { return injector }
            ancestor = injector.parent
        }
        return nil
    }

    /// Whether this injector still stores `registration` under its key.
    func stores(_ registration: Registration) -> Bool {
        registry.withLock { registry in
            guard case .factory(let current, _)? = registry[registration.key] else { return false }
            return registration.isStored(as: current)
        }
    }

    /// Runs the factory of `registration`, whose place this thread claimed in `scoped`, and
    /// keeps its value; wakes the threads that wait for it, succeeded or failed.
    private func createScopedValue(
        of registration: Registration,
        heldBy holder: DependencyInjector,
        in scoped: Locked<ScopedValues>,
        context: ResolutionContext
    ) throws(InjectionError) -> Any {
        let creation = SingletonCreation.Key(registration, keptBy: self)
        let value: Any
        do {
            value = try run(registration, in: context)
        } catch {
            if scoped.withLock({ $0.release(claimOf: registration, heldBy: holder) }) {
                SingletonCreation.shared.finish(creation)
            }
            throw error
        }
        let (replaced, isAwaited, isClosed) = scoped.withLock { scoped -> (ScopedValues.Kept?, Bool, Bool) in
            guard !scoped.isClosed else {
                return (nil, scoped.release(claimOf: registration, heldBy: holder), true)
            }
            let (replaced, isAwaited) = scoped.keep(value, producedBy: registration, heldBy: holder, claimed: true)
            return (replaced, isAwaited, false)
        }
        if isAwaited { SingletonCreation.shared.finish(creation) }
        // After the claim ends, so that no resolve waiting for the value waits for user code.
        if let teardown = replaced?.teardown { tearDown([teardown]) }
        if isClosed { throw refusalAfterClose(of: value, producedBy: registration, path: context.path) }
        return value
    }
}
