/// The values an injector keeps for registrations other injectors hold: an opened scope's
/// values of `.scoped` registrations (its ancestors', and those of plain children below it),
/// and a test scope's own copies of its ancestors' singletons (and weak instances), built with
/// the test's registrations (`ChildSingletons.own`). The one store
/// of kept values besides each registry's (principle 13): one registration is one slot, with
/// its value, and the creation of a scoped value running now, which claims its slot.
///
/// A slot is found by its registration's identity, which the resolve has in hand from its
/// lookup: no ancestor is asked which registration it holds. A re-registered key is seen at
/// once (its new registration has no slot yet), and the copy of a nearer ancestor's override
/// never replaces the copy of a farther one's. When a value is kept for a key that has
/// another registration's value here, that one's holder (or, found in an ancestor's table, the
/// ancestors) is asked whether it is still stored: the value of one replaced or removed since
/// is let go then (see `DependencyInjector.letGoOfReplaced(by:)`).
///
/// A request keeps a handful of values and lives for microseconds, so this is a short list
/// searched in order, not a dictionary: hashing a key costs more than the search.
/// A claim lets the first resolve create a scoped value under this injector's lock alone,
/// without the process-wide `SingletonCreation` lock; only a resolve that finds the value
/// being created by another thread goes there, to wait and to take part in the cycle check
/// (see `DependencyInjector.scopedValue(of:heldBy:in:context:)`); one that finds a task
/// creating it awaits what the claim hands it (`AsyncDependencyInjector.scopedRequest`). A singleton's copy is
/// created through `SingletonCreation`, as the holder's own singleton is.
struct KeptValues {
    /// A value being created, for the registration whose identity it holds, by a thread's
    /// resolve or by a task's (the actor face's); `isAwaited` once a thread waits for a
    /// thread's creation in `SingletonCreation`, which the creator must then wake.
    struct Claim {
        var creator: Creator
        let registration: ObjectIdentifier
        var isAwaited = false

        /// Who creates a value: a thread (its context), or a task running an async factory,
        /// under its number in the wait graph; `awaited` is what the task's waiters await, made
        /// by the first of them (most creations have none), which the creator finishes.
        enum Creator {
            case thread(ResolutionContext)
            case task(number: AsyncSingletonCreation.Number, awaited: AsyncSingletonCreation?)
        }

        /// The thread creating the value, if a thread is.
        var thread: ResolutionContext? {
            guard case .thread(let context) = creator else { return nil }
            return context
        }

        /// What the waiters of a task's creation await, if any waits.
        var awaited: AsyncSingletonCreation? {
            guard case .task(_, let awaited) = creator else { return nil }
            return awaited
        }
    }

    /// A kept value, the registration that made it, and its place in creation order (for a
    /// teardown, see `PendingTeardown`, made only for a value that has one, when it is let go).
    /// A class: a slot is moved and copied as it is kept, looked up and closed, and a value in
    /// an `Any` costs many copies.
    final class Kept {
        let registration: Registration
        let held: Held
        let order: UInt64
        /// The injector that stores `registration`, when the resolve that kept the value knew
        /// it (weak: a child below the scope may go first); unknown (`knowsHolder` false) for a
        /// registration found in an ancestor's table.
        private weak let holder: DependencyInjector?
        private let knowsHolder: Bool

        /// How a value is held: strongly, or weakly (a `.weak` registration's class instance).
        /// The registry's `Cache` without its teardown record: a request's values read through
        /// `Cache` cost 5% more per request (28,400 instructions against 27,100, measured).
        enum Held {
            case strong(Any)
            case weak(WeakReference)
        }

        /// `value` as `registration`'s scope keeps it, numbered in creation order; `nil` when
        /// it keeps nothing (a `.weak` value that is no class instance, made anew each time).
        init?(keeping value: Any, producedBy registration: Registration, heldBy holder: DependencyInjector?) {
            if registration.scope.isKeptStrongly {
                held = .strong(value)
            } else if registration.scope == .weak, type(of: value) is AnyObject.Type {
                held = .weak(WeakReference(object: value as AnyObject, valueType: ObjectIdentifier(type(of: value))))
            } else {
                return nil
            }
            self.registration = registration
            order = registration.teardown == nil ? 0 : CreationOrder.next()
            self.holder = holder
            knowsHolder = holder != nil
        }

        /// Whether its registration is no longer stored by its holder (replaced, removed, or the
        /// holder gone): asked of the holder when known, else of `above`, the keeper's parent,
        /// and its ancestors.
        func isReplaced(lookingFrom above: DependencyInjector) -> Bool {
            guard knowsHolder else { return !above.isStoredHereOrAbove(registration) }
            return holder?.stores(registration) != true
        }

        /// The value, while it lives.
        var value: Any? {
            switch held {
            case .strong(let value): value
            case .weak(let reference): reference.object
            }
        }

        /// The teardown of the value, if its registration has one (only a strongly held value's).
        var teardown: PendingTeardown? {
            guard case .strong(let value) = held else { return nil }
            return PendingTeardown(of: value, producedBy: registration, order: order)
        }
    }

    /// One registration's kept value, its running creation, or both (a weak value gone while
    /// the next is created). The registration lives while the slot does: its value keeps it,
    /// or the resolve that claimed its creation does, so its identity names one registration.
    fileprivate struct Slot {
        let registration: ObjectIdentifier
        let key: DependencyKey
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

    /// Where `registration`'s slot is, searched in place (no slot copied).
    private func index(of registration: Registration) -> Int? {
        let registration = ObjectIdentifier(registration)
        var index = slots.startIndex
        while index < slots.endIndex {
            if slots[index].registration == registration { return index }
            index += 1
        }
        return nil
    }

    /// The value kept for `registration`, `.closed` when none is and none will be.
    func kept(_ registration: Registration) -> SingletonCreation.Start? {
        if let value = value(of: registration) { return .ready(value) }
        return isClosed ? .closed : nil
    }

    func value(of registration: Registration) -> Any? {
        guard let index = index(of: registration) else { return nil }
        return slots[index].kept?.value
    }

    /// What a resolve finds for `registration`'s value.
    enum Claimed {
        /// The value, kept.
        case ready(Any)
        /// The place is the resolve's now: it creates the value, then calls `keep` or `release`.
        case claimed
        /// Another resolve is creating it, claimed as `claim` says.
        case running(Claim)
        /// This thread is creating it already: the factory asked for its own value.
        case cycle
        /// The scope is closed: nothing is built for it.
        case closed
    }

    /// The kept value of `registration`, or a claim on its creation for the thread of
    /// `context`, which finds a `cycle` if it claimed it already.
    mutating func claim(_ registration: Registration, by context: ResolutionContext) -> Claimed {
        claim(registration, asking: context) { .thread(context) }
    }

    /// `claim(_:by:)` for a task's resolve (the actor face's), whose creation takes the
    /// number `numbering` gives, called only when the task takes the place. A task that finds
    /// another task's creation gets what to await, made now if it is the first to wait. The
    /// task checks its own frames for a cycle before it asks.
    mutating func claim(
        _ registration: Registration,
        numbering: () -> AsyncSingletonCreation.Number
    ) -> Claimed {
        claim(registration, asking: nil, awaiting: true) { .task(number: numbering(), awaited: nil) }
    }

    private mutating func claim(
        _ registration: Registration,
        asking thread: ResolutionContext?,
        awaiting: Bool = false,
        creator: () -> Claim.Creator
    ) -> Claimed {
        guard let index = index(of: registration) else {
            if isClosed { return .closed }
            let claim = Claim(creator: creator(), registration: ObjectIdentifier(registration))
            append(Slot(registration: claim.registration, key: registration.key, kept: nil, claim: claim))
            claims += 1
            return .claimed
        }
        if let value = slots[index].kept?.value { return .ready(value) }
        if var running = slots[index].claim {
            if let thread, running.thread === thread { return .cycle }
            if awaiting, case .task(let number, nil) = running.creator {
                let awaited = AsyncSingletonCreation(of: registration, number: number)
                running.creator = .task(number: number, awaited: awaited)
                slots[index].claim = running
            }
            return .running(running)
        }
        if isClosed { return .closed }
        slots[index].claim = Claim(creator: creator(), registration: ObjectIdentifier(registration))
        claims += 1
        return .claimed
    }

    /// The thread creating the value `claim` names, if it still is, marked as awaited, so that
    /// it wakes its waiters when it is done.
    mutating func awaitedCreator(of claim: Claim, by registration: Registration) -> ResolutionContext? {
        guard let creator = claim.thread, let index = index(of: registration), let running = slots[index].claim,
            running.thread === creator
        else { return nil }
        slots[index].claim?.isAwaited = true
        return creator
    }

    /// Whether a resolve is creating `registration`'s value now.
    func isCreating(_ registration: Registration) -> Bool {
        index(of: registration).map { slots[$0].claim != nil } ?? false
    }

    /// What the resolves waiting for a task's creation of `registration`'s value await, if any.
    func awaited(_ registration: Registration) -> AsyncSingletonCreation? {
        index(of: registration).flatMap { slots[$0].claim?.awaited }
    }

    /// Keeps `value` as what `registration` produced, unless closed, ending this thread's claim
    /// if `claimed`. Returns what it replaces (for the caller to tear down and release after
    /// the unlock), whether a thread waits for the claim's end, and whether another
    /// registration's value is kept for the key.
    mutating func keep(
        _ value: Any,
        producedBy registration: Registration,
        heldBy holder: DependencyInjector?,
        claimed: Bool = false
    ) -> Keeping {
        let kept = isClosed ? nil : Kept(keeping: value, producedBy: registration, heldBy: holder)
        var keeping = Keeping(isClosed: isClosed)
        guard let index = index(of: registration) else {
            if let kept {
                append(Slot(registration: ObjectIdentifier(registration), key: registration.key, kept: kept))
                keeping.sharesKey = sharesKey(with: registration)
            }
            return keeping
        }
        keeping.ended = claimed ? endClaim(at: index) : nil
        guard let kept else {
            removeIfEmpty(at: index)
            return keeping
        }
        keeping.replaced = exchange(&slots[index].kept, with: kept)
        // The slots with values stay in the order the values were kept, creation order: a
        // close runs their teardowns from the last back, with no sort.
        if index != slots.endIndex - 1 { slots.append(slots.remove(at: index)) }
        keeping.sharesKey = sharesKey(with: registration)
        return keeping
    }

    /// What keeping a value let go of and must tell (see `keep`).
    struct Keeping {
        /// Whether the injector's close has begun: the value was not kept.
        var isClosed = false
        /// The value it replaced: the registration's earlier one (a weak one gone).
        var replaced: Kept?
        /// The claim that ended, whose waiters the creator wakes.
        var ended: Claim?
        /// Whether another registration's value is kept for the key: maybe one replaced since.
        var sharesKey = false
    }

    /// Whether a registration other than `registration` has a value kept for its key.
    private func sharesKey(with registration: Registration) -> Bool {
        let identity = ObjectIdentifier(registration)
        for index in slots.indices  // by index: no slot copied
        where slots[index].registration != identity && slots[index].kept != nil && slots[index].key == registration.key
        {
            return true
        }
        return false
    }

    /// The values other registrations than `registration` made for its key.
    func others(sharingKeyWith registration: Registration) -> [Kept] {
        slots.compactMap { slot in
            guard slot.key == registration.key, let kept = slot.kept, kept.registration !== registration else {
                return nil
            }
            return kept
        }
    }

    /// Forgets the value kept for `registration`, which it returns.
    mutating func dropValue(of registration: Registration) -> Kept? {
        guard let index = index(of: registration) else { return nil }
        defer { removeIfEmpty(at: index) }
        return exchange(&slots[index].kept, with: nil)
    }

    /// Ends the claim on `registration`'s value, whose factory failed (or made it after the
    /// close began); returns the claim, whose waiters the creator wakes.
    mutating func release(claimOf registration: Registration) -> Claim? {
        guard let index = index(of: registration) else { return nil }
        let ended = endClaim(at: index)
        removeIfEmpty(at: index)
        return ended
    }

    /// Adds `slot`; the first makes room for a request's few values, without a growth (a
    /// scope that keeps nothing allocates nothing).
    private mutating func append(_ slot: Slot) {
        if slots.capacity == 0 { slots.reserveCapacity(4) }
        slots.append(slot)
    }

    private mutating func endClaim(at index: Int) -> Claim? {
        guard let claim = exchange(&slots[index].claim, with: nil) else { return nil }
        claims -= 1
        return claim
    }

    private mutating func removeIfEmpty(at index: Int) {
        if slots[index].kept == nil, slots[index].claim == nil { slots.remove(at: index) }
    }

    /// Forgets the values kept for `key` (a reset of that key, a decorator added for it),
    /// whichever registration made them, which it returns. Running creations go on.
    mutating func dropValues(of key: DependencyKey) -> Dropped {
        dropKept(where: { $0.registration.key == key })
    }

    /// Forgets every kept value whose registration's scope `resets` (a reset of that scope),
    /// which it returns. Running creations go on.
    mutating func dropValues(ofScopes resets: (Scope) -> Bool) -> Dropped {
        dropKept(where: { resets($0.registration.scope) })
    }

    /// Forgets every kept value that `drops`, which it returns. Running creations go on.
    private mutating func dropKept(where drops: (Kept) -> Bool) -> Dropped {
        var dropped: [Slot] = []
        for index in slots.indices where slots[index].kept.map(drops) == true {
            dropped.append(slots[index])
            slots[index].kept = nil
        }
        slots.removeAll { $0.kept == nil && $0.claim == nil }
        return Dropped(slots: dropped)
    }

    /// Keeps nothing from now on; returns every kept value, for the caller to tear down and
    /// release after the unlock. Running creations go on, and are refused when they try to
    /// keep their values.
    mutating func close() -> Dropped {
        isClosed = true
        guard claims > 0 else { return Dropped(slots: exchange(&slots, with: [])) }
        return dropKept(where: { _ in true })
    }

    /// Values let go by a reset or a close: released with this, after the unlock.
    struct Dropped {
        fileprivate let slots: [Slot]

        /// The teardowns of the values, in the order they were kept.
        var teardowns: [PendingTeardown] { slots.compactMap { $0.kept?.teardown } }

        /// Runs the synchronous teardowns of the values from their slots, latest first, with
        /// no `PendingTeardown` made for each: what a close runs when nothing else is torn down
        /// with them. Returns the failures, and the asynchronous teardowns, latest first, for
        /// the caller to await.
        func runTeardowns() -> (failures: [TeardownError.Failure], deferred: [PendingTeardown]) {
            var failures: [TeardownError.Failure] = []
            var deferred: [PendingTeardown] = []
            for index in slots.indices.reversed() {  // by index: no slot copied
                guard let kept = slots[index].kept, case .strong(let value) = kept.held,
                    let teardown = kept.registration.teardown
                else { continue }
                let registration = kept.registration
                switch teardown.runIfSynchronous(
                    on: value, key: registration.key, site: registration.site.declarationSite)
                {
                case nil: break
                case .failed(let failure)?: failures.append(failure)
                case .asynchronous?: if let pending = kept.teardown { deferred.append(pending) }
                }
            }
            return (failures, deferred)
        }

        /// `runTeardowns()` for the actor face's close, which awaits each asynchronous one in turn.
        func runAllTeardowns() async -> [TeardownError.Failure] {
            var failures: [TeardownError.Failure] = []
            for index in slots.indices.reversed() {  // by index: no slot copied
                guard let kept = slots[index].kept, case .strong(let value) = kept.held,
                    let teardown = kept.registration.teardown
                else { continue }
                do {
                    switch teardown {
                    case .sync(let close): try close(value)
                    case .async(let close): try await close(value)
                    }
                } catch {
                    let registration = kept.registration
                    failures.append(
                        TeardownError.Failure(
                            key: registration.key, error: error, site: registration.site.declarationSite))
                }
            }
            return failures
        }
    }
}

extension DependencyInjector {
    /// What this injector keeps for `registration`, which an ancestor holds.
    func keptValue(of registration: Registration) -> Any? {
        keptValues?.withLock { $0.value(of: registration) }
    }

    /// What this injector keeps for `registration`, which an ancestor holds, for a creation
    /// about to start: the value, `.closed` once its `close()` has begun (nothing is built for
    /// a closed keeper), or `nil`.
    func kept(_ registration: Registration) -> SingletonCreation.Start? {
        keptValues?.withLock { $0.kept(registration) }
    }

    /// Keeps `value`, made by `registration`, which `holder`, an ancestor, holds, unless this
    /// injector is closed; the teardown of a value it replaces is for the caller to run.
    func keep(_ value: Any, producedBy registration: Registration, heldBy holder: DependencyInjector)
        -> SingletonCreation.Keeping
    {
        guard let keptValues else { return SingletonCreation.Keeping() }
        // What keeping replaces leaves the lock whole, registration included: released there,
        // the last reference to a replaced registration would release its factory's captures.
        let kept = keptValues.withLock { $0.keep(value, producedBy: registration, heldBy: holder) }
        return SingletonCreation.Keeping(isClosed: kept.isClosed, letGo: letGo(by: kept, of: registration))
    }

    /// The teardowns of what keeping a value of `registration` here let go of: the value it
    /// replaced, and those of registrations replaced since (`letGoOfReplaced(by:)`), for the
    /// caller to run after the unlock.
    func letGo(by keeping: KeptValues.Keeping, of registration: Registration) -> [PendingTeardown] {
        var letGo = keeping.replaced?.teardown.map { [$0] } ?? []
        if keeping.sharesKey { letGo += letGoOfReplaced(by: registration) }
        return letGo
    }

    /// Lets go of the values kept here for the key of `registration` (whose value was just
    /// kept) by other registrations that their holders no longer store: replaced or removed
    /// since, their values were for a resolve of the key, which now gets `registration`'s.
    /// The values of overrides still stored, above the scope or below it, stay. Their
    /// teardowns, for the caller to run after the unlock.
    func letGoOfReplaced(by registration: Registration) -> [PendingTeardown] {
        guard let keptValues, let parent else { return [] }
        let others = keptValues.withLock { $0.others(sharingKeyWith: registration) }
        let replaced = others.filter { $0.isReplaced(lookingFrom: parent) }
        guard !replaced.isEmpty else { return [] }
        let dropped = keptValues.withLock { values in replaced.compactMap { values.dropValue(of: $0.registration) } }
        return dropped.compactMap(\.teardown)
    }

    /// Whether this injector or an ancestor stores `registration`: not replaced or removed.
    func isStoredHereOrAbove(_ registration: Registration) -> Bool {
        sequence(first: self, next: \.parent).contains { $0.stores(registration) }
    }

    /// Whether this injector stores `registration` under its key (or stands it in for its
    /// test double or preview).
    func stores(_ registration: Registration) -> Bool {
        registry.withLock { registry in
            guard case .factory(let current, _)? = registry[registration.key] else { return false }
            return registration.isStored(as: current)
        }
    }
}
