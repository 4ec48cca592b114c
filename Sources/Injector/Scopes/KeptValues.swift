/// The values an injector keeps apart from its registry's: an opened scope's values of
/// `.scoped` registrations (its ancestors', its own, and those of plain children below it),
/// a test scope's own copies of its ancestors' singletons (and weak instances), built with
/// the test's registrations (`ChildSingletons.own`), and the values of registrations that cache
/// by argument tuple (`register(_:caching:)`), which the injector that would keep their
/// singleton keeps. The one store of kept values besides each registry's (principle 13): a
/// registration (or a registration's argument tuple) has at most one kept value, and at most
/// one creation running now, which claims its place.
///
/// A value is found by its registration's identity (`Registration.lineage`: every version of a
/// registration modified in place shares it), which the resolve has in hand from its lookup:
/// no ancestor is asked which registration it holds. A re-registered key is seen at
/// once (its new registration has no value here yet), and the copy of a nearer ancestor's override
/// never replaces the copy of a farther one's. When a value is kept for a key that has
/// another registration's value here, that one's holder (or, found in an ancestor's table, the
/// ancestors) is asked whether it is still stored: the value of one replaced or removed since
/// is let go then (see `DependencyInjector.letGoOfReplaced(by:)`).
///
/// A request keeps a handful of values and lives for microseconds, so these are short lists
/// searched in order, not a dictionary: hashing a key costs more than the search.
/// A claim lets the first resolve create a scoped value under this injector's lock alone,
/// without the process-wide `SingletonCreation` lock; only a resolve that finds the value
/// being created by another thread goes there, to wait and to take part in the cycle check
/// (see `DependencyInjector.scopedValue(of:heldBy:context:)`); one that finds a task
/// creating it awaits what the claim hands it (`AsyncDependencyInjector.scopedRequest`). A singleton's copy is
/// created through `SingletonCreation`, as the holder's own singleton is.
struct KeptValues {
    /// A value being created, for the registration whose identity it holds, by a thread's
    /// resolve or by a task's (the actor face's); `isAwaited` once a thread waits for a
    /// thread's creation in `SingletonCreation`, which the creator must then wake.
    struct Claim {
        var creator: Creator
        /// What is being created: the registration's value (its `lineage`), or the `Tuple` of
        /// one of its argument tuples (whose identity names the creation, in `SingletonCreation` too).
        let registration: ObjectIdentifier
        var isAwaited = false

        /// Who creates a value: a thread (its context), or a task running an async factory,
        /// under its number in the wait graph; `awaited` is what the task's waiters await, made
        /// by the first of them (most creations have none), which the creator finishes.
        ///
        /// A thread's context is held unretained (a retain and a release a scoped value
        /// otherwise): a claim lives only while its creator runs the creation, whose resolve
        /// holds the context, and is ended by it (`keep`, `release`) before it returns. Outside
        /// the lock, where the claim may have ended since, it is compared, never used (see
        /// `isThread`, `awaitedCreator(of:)`).
        enum Creator {
            case thread(Unmanaged<ResolutionContext>)
            case task(number: AsyncSingletonCreation.Number, awaited: AsyncSingletonCreation?)

            /// A thread's creator, for `context`'s resolve.
            static func thread(_ context: ResolutionContext) -> Creator {
                .thread(.passUnretained(context))
            }
        }

        /// Whether a thread creates the value (not a task).
        var isThread: Bool {
            guard case .thread = creator else { return false }
            return true
        }

        /// Whether `context`'s thread creates the value.
        func isCreated(by context: ResolutionContext) -> Bool {
            guard case .thread(let creator) = creator else { return false }
            return creator.toOpaque() == Unmanaged.passUnretained(context).toOpaque()
        }

        /// What the waiters of a task's creation await, if any waits.
        var awaited: AsyncSingletonCreation? {
            guard case .task(_, let awaited) = creator else { return nil }
            return awaited
        }

        /// Wakes the threads that wait in `SingletonCreation` for this creation, ended, of a
        /// value that `keeper` keeps, if any waits.
        func wakeThreads(keptBy keeper: DependencyInjector) {
            guard isAwaited else { return }
            SingletonCreation.shared.finish(
                SingletonCreation.Key(owner: ObjectIdentifier(keeper), registration: registration))
        }
    }

    /// A kept value, the registration that made it, and its place in creation order (for a
    /// teardown, see `PendingTeardown`, made only for a value that has one, when it is let go).
    /// A slot of the store's one array, not an object of its own: a request's values cost no
    /// allocation each; they are read in place, and moved, not copied, as they are kept and closed.
    struct Kept {
        /// The latest version of the registration that the value was resolved through (see
        /// `adopted(by:)`), whose teardown closes it.
        let registration: Registration
        /// `registration.lineage`, which every lookup compares: stored, one load.
        let lineage: ObjectIdentifier
        /// The value, held strongly; `()` for one held weakly (in `weakly`). Not an enum of
        /// the two: a value bound out of an enum's case is copied, where a stored `Any` is
        /// passed on in place.
        private let strongly: Any
        /// A `.weak` registration's class instance, held weakly; `nil` for a value held strongly.
        /// In an object of its own, not a `WeakReference?` in place: a weak reference has no
        /// spare bit for `nil`, so that optional went through outlined witnesses; a class
        /// reference is one word.
        private let weakly: WeakValue?
        /// Whether the value is `weakly`'s: a load, where asking `weakly` goes through its
        /// value witnesses.
        private let isHeldWeakly: Bool
        let order: UInt64
        /// The injector that stores `registration`, when the resolve that kept the value knew
        /// it; unknown for a registration found in an ancestor's table.
        private let holder: Holder
        /// The versions of the registration this one replaced when it took a later one
        /// (`adopted(by:)`), kept with it: released under the keeper's lock, an in-between
        /// version could be the last reference to what its closures captured, whose `deinit`
        /// would run there (principle 4). Released with this one, after the unlock. Never read.
        private let superseded: Superseded?

        /// An earlier version of a kept value's registration, and those before it.
        private final class Superseded {
            let registration: Registration
            let earlier: Superseded?

            init(_ registration: Registration, earlier: Superseded?) {
                self.registration = registration
                self.earlier = earlier
            }
        }

        /// Where the registration of a kept value is stored. An ancestor of the keeper lives as
        /// long as the keeper's values, so only a child below the keeper, which may go first, is
        /// held weakly: a weak reference gives its object a side table, after which every
        /// retain and release of the object takes the runtime's slow path. Held weakly, the
        /// app injector made each of its retains cost several times as much, for good.
        private enum Holder {
            /// Found in a published table: the keeper's registration, or an ancestor's.
            case unknown
            /// The keeper itself (an opened scope's own scoped registration): not held, which
            /// would keep it alive through its own values.
            case keeper
            case above(DependencyInjector)
            case below(WeakInjector)
        }

        /// A `.weak` registration's value, held weakly (see `weakly`).
        private final class WeakValue {
            weak var object: AnyObject?

            init(_ object: AnyObject) {
                self.object = object
            }
        }

        /// A weak reference in an object of its own: with every case a class reference, the
        /// enum is moved and destroyed as one word, where a weak reference in a struct payload
        /// made each go through the runtime.
        private final class WeakInjector {
            weak var injector: DependencyInjector?

            init(_ injector: DependencyInjector) {
                self.injector = injector
            }
        }

        /// Whether `registration`'s scope keeps `value`: not a `.weak` value that is no class
        /// instance, made anew each time.
        static func keeps(_ value: Any, producedBy registration: Registration) -> Bool {
            registration.scope.isKeptStrongly || (registration.scope == .weak && type(of: value) is AnyObject.Type)
        }

        /// `value` as `registration`'s scope keeps it for `keeper` (which `keeps` says it does),
        /// numbered in creation order. Borrowed, but for the registration it stores: an
        /// initialiser's arguments are owned otherwise, and the caller, which goes on using
        /// each, copied them all for it.
        init(
            keeping value: borrowing Any, producedBy registration: Registration,
            heldBy holder: borrowing DependencyInjector?, keptBy keeper: borrowing DependencyInjector
        ) {
            if registration.scope.isKeptStrongly {
                strongly = copy value
                weakly = nil
                isHeldWeakly = false
            } else {
                strongly = ()
                isHeldWeakly = true
                weakly = WeakValue(copy value as AnyObject)
            }
            lineage = registration.lineage
            // Numbered with or without a teardown: one attached later closes it in its place.
            order = CreationOrder.next()
            self.holder = Self.holder(holder, keptBy: keeper)
            superseded = nil
            // Last, moved in: stored first, it was retained for the field and released at the end.
            self.registration = registration
        }

        /// `kept` as `later`, a later version of its registration, says to close it.
        private init(_ kept: Kept, closedAs later: Registration) {
            registration = later
            lineage = kept.lineage
            strongly = kept.strongly
            weakly = kept.weakly
            isHeldWeakly = kept.isHeldWeakly
            order = kept.order
            holder = kept.holder
            superseded = Superseded(kept.registration, earlier: kept.superseded)
        }

        private static func holder(_ holder: DependencyInjector?, keptBy keeper: DependencyInjector) -> Holder {
            guard let holder else { return .unknown }
            if holder === keeper { return .keeper }
            var above = keeper.parent
            while let injector = above {
                if injector === holder { return .above(holder) }
                above = injector.parent
            }
            return .below(WeakInjector(holder))
        }

        /// Whether its registration is no longer stored by its holder (replaced, removed, or the
        /// holder gone), `keeper` keeping the value: asked of the holder when known, else of the
        /// keeper and its ancestors.
        func isReplaced(keptBy keeper: DependencyInjector) -> Bool {
            switch holder {
            case .unknown: !keeper.isStoredHereOrAbove(registration)
            case .keeper: !keeper.stores(registration)
            case .above(let holder): !holder.stores(registration)
            case .below(let reference): reference.injector?.stores(registration) != true
            }
        }

        /// This value closed as `later` says, when it is a later version of its registration
        /// (modified in place since: `.teardown` attached after the value was made); `nil`
        /// otherwise: a new `Kept`, which replaces this one under the keeper's lock.
        func adopted(by later: Registration) -> Kept? {
            later.revision > registration.revision ? Kept(self, closedAs: later) : nil
        }

        /// The value, while it lives.
        var value: Any? {
            if isHeldWeakly { return weakly?.object }
            return strongly
        }

        /// Runs the teardown of the value, if its registration has one (only a strongly held
        /// value's) and it is synchronous: as `Registration.Teardown.runIfSynchronous` says.
        /// A method, so that the value, the registration and its teardown are read from `self`
        /// in place, not copied out of it (three retains and releases a value, in a close).
        func runTeardownIfSynchronous() -> TeardownOutcome? {
            guard !isHeldWeakly, let teardown = registration.teardown else { return nil }
            return teardown.runIfSynchronous(
                on: strongly, key: registration.key, site: registration.site.declarationSite)
        }

        /// Whether its teardown, if any, is synchronous (not awaited, not on the main actor).
        var tearsDownInPlace: Bool { isHeldWeakly || registration.teardown?.runsInPlace ?? true }

        /// The teardown of the value, if its registration has one (only a strongly held value's).
        var teardown: PendingTeardown? {
            guard !isHeldWeakly else { return nil }
            return PendingTeardown(of: strongly, producedBy: registration, order: order)
        }

        /// What a close does with the value in its turn: its teardown, or, without one, its
        /// release (see `PendingTeardown.init(holding:key:order:)`); `nil` for one held weakly.
        var release: PendingTeardown? {
            guard !isHeldWeakly else { return nil }
            return teardown ?? PendingTeardown(holding: strongly, key: registration.key, order: order)
        }
    }

    /// The kept values, in the order they were kept, which is creation order: a close runs
    /// their teardowns from the last back, with no sort. One per registration.
    private var values: [Kept] = []
    /// A filter of the types of the keys whose values were kept here (see `TypeFilter`): an
    /// unset bit means none was, and `keep` looks for another registration's value of the key
    /// only when it may. Bits are only added.
    private var keptTypes: UInt64 = 0
    /// The creations running now, one per registration. Apart from the values, so that keeping
    /// a value appends it and moves nothing. A claim's registration lives while it does: the
    /// resolve that claimed it keeps it, so its identity names one registration.
    private var claims: [Claim] = []
    /// The values kept per argument tuple, by the identity of the registration that caches them.
    private var tuples = [ObjectIdentifier: Tuples]()  // not `[:]`, a call (see `SimpleNames`)
    /// Whether the injector's `close()` has begun: nothing is kept from then on.
    var isClosed = false
    /// Whether a value kept here has a teardown that does not run in place (awaited, or on the
    /// main actor): a close then binds its teardowns' run (see `Dropped.tearsDownInPlace`).
    /// Noted as values are kept, where their registrations are in hand: never unset.
    private var awaitsTeardowns = false
    /// Where `openScope` was called, for the report of a scope released without `close()`;
    /// `nil` for the scopes the library opens and closes itself (tests, `verify()`, previews).
    let openedAt: DeclarationSite?

    init(openedAt: DeclarationSite?) {
        self.openedAt = openedAt
    }

    /// Where `registration`'s kept value is (made by any version of it), searched in place.
    /// Inlined: called, it was handed a copy of the whole store, twice a scoped value.
    @inline(__always)
    private func valueIndex(of registration: Registration) -> Int? {
        let lineage = registration.lineage
        var index = values.startIndex
        while index < values.endIndex {
            if values[index].lineage == lineage { return index }
            index += 1
        }
        return nil
    }

    /// Where the creation that `claimed` names (a registration's lineage, a tuple's identity)
    /// is, searched in place (no claim copied). Inlined, as `valueIndex(of:)` is.
    @inline(__always)
    private func claimIndex(of claimed: ObjectIdentifier) -> Int? {
        var index = claims.startIndex
        while index < claims.endIndex {
            if claims[index].registration == claimed { return index }
            index += 1
        }
        return nil
    }

    /// The value kept for `registration`, for a resolve, `.closed` when none is and none will be.
    mutating func kept(_ registration: Registration) -> SingletonCreation.Start? {
        if let value = resolvedValue(of: registration) { return .ready(value) }
        return isClosed ? .closed : nil
    }

    /// The value kept for `registration`, for a resolve, which closes it from now on if it is a
    /// later version of the one that made it. A weak value gone is made again, and replaces the
    /// old one when kept. Inlined into `claim`, as `valueIndex(of:)` is.
    @inline(__always)
    mutating func resolvedValue(of registration: Registration) -> Any? {
        guard let index = valueIndex(of: registration), let value = values[index].value else { return nil }
        if let adopted = values[index].adopted(by: registration) { adopt(adopted, at: index) }
        return value
    }

    /// The value kept for `registration`, for diagnostics, which change nothing.
    func valueAsIs(of registration: Registration) -> Any? {
        valueIndex(of: registration).flatMap { values[$0].value }
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

    /// The kept value of `registration`, or a claim on its creation (see
    /// `claim(_:of:asking:creator:)`). A thread finds a `cycle` if it claimed it already; a
    /// task checks its own frames for one before it asks.
    @inline(__always)
    mutating func claim(
        _ registration: Registration,
        asking thread: ResolutionContext?,
        creator: () -> Claim.Creator
    ) -> Claimed {
        if let value = resolvedValue(of: registration) { return .ready(value) }
        return claim(registration.lineage, of: registration, asking: thread, creator: creator)
    }

    /// The claim on the creation that `claimed` names (a value of `registration`, or one of
    /// its argument tuples), whose value is not kept: by the thread `thread`, or by a task
    /// (`thread` is `nil`), `creator` saying which (called only when it takes the place),
    /// unless another runs it (a task that finds a task's creation gets what to await, made
    /// now if it is the first to wait) or the keeper is closed. A tuple `handingOut` its value
    /// counts its creator and the tasks that await it. Inlined into each caller: called, it
    /// was handed the whole store and its creator's closure.
    @inline(__always)
    private mutating func claim(
        _ claimed: ObjectIdentifier,
        of registration: Registration,
        asking thread: ResolutionContext?,
        handingOut tuple: Tuple? = nil,
        creator: () -> Claim.Creator
    ) -> Claimed {
        if let index = claimIndex(of: claimed) {
            if let thread, claims[index].isCreated(by: thread) { return .cycle }
            if thread == nil, case .task(let number, let awaited) = claims[index].creator {
                if awaited == nil {
                    claims[index].creator = .task(
                        number: number, awaited: AsyncSingletonCreation(of: registration, number: number))
                }
                tuple?.handOuts += 1
            }
            return .running(claims[index])
        }
        if isClosed { return .closed }
        tuple?.handOuts += 1
        if claims.capacity == 0 { claims.reserveCapacity(4) }  // a request's few, without a growth
        claims.append(Claim(creator: creator(), registration: claimed))
        return .claimed
    }

    /// Replaces the value at `index` with `adopted`, a later version of its registration's.
    private mutating func adopt(_ adopted: Kept, at index: Int) {
        if !adopted.tearsDownInPlace { awaitsTeardowns = true }
        values[index] = adopted
    }

    /// The thread creating the value `claim` names, if it still is, marked as awaited, so that
    /// it wakes its waiters when it is done.
    mutating func awaitedCreator(of claim: Claim) -> ResolutionContext? {
        guard case .thread(let creator) = claim.creator, let index = claimIndex(of: claim.registration),
            case .thread(let current) = claims[index].creator, current.toOpaque() == creator.toOpaque()
        else { return nil }
        claims[index].isAwaited = true
        // Alive: its claim is still here, so it still runs the creation. Retained from here on.
        return current.takeUnretainedValue()
    }

    /// What the resolves waiting for a task's creation of `registration`'s value await, if any.
    func awaited(_ registration: Registration) -> AsyncSingletonCreation? {
        claimIndex(of: registration.lineage).flatMap { claims[$0].awaited }
    }

    /// Keeps `value` as what `registration` produced, unless closed, ending this thread's claim
    /// if `claimed`. Returns what it replaces (for the caller to tear down and release after
    /// the unlock), whether a thread waits for the claim's end, and whether another
    /// registration's value is kept for the key.
    @inline(__always)
    mutating func keep(
        _ value: Any,
        producedBy registration: Registration,
        heldBy holder: DependencyInjector?,
        keptBy keeper: DependencyInjector,
        claimed: Bool = false
    ) -> Keeping {
        var keeping = Keeping(isClosed: isClosed)
        if claimed { keeping.ended = release(claimOf: registration) }
        guard !isClosed, Kept.keeps(value, producedBy: registration) else { return keeping }
        // Its earlier value (a weak one gone) is replaced; the new one goes last, in creation order.
        if let index = valueIndex(of: registration) { keeping.replaced = Replaced(values.remove(at: index)) }
        if values.capacity == 0 { values.reserveCapacity(4) }  // a request's few, without a growth
        values.append(Kept(keeping: value, producedBy: registration, heldBy: holder, keptBy: keeper))
        // A weak value's teardown never runs (see `Kept.teardown`).
        if !awaitsTeardowns, registration.scope.isKeptStrongly {
            awaitsTeardowns = !(registration.teardown?.runsInPlace ?? true)
        }
        // Searched only when a value of the key's type may be kept already (a request keeps
        // values of as many types, where a search per value is dear).
        let bits = TypeFilter.bits(of: registration.key.typeID)
        keeping.sharesKey = TypeFilter.mayHold(bits, in: keptTypes) && sharesKey(with: registration)
        keptTypes |= bits
        return keeping
    }

    /// What keeping a value let go of and must tell (see `keep`).
    struct Keeping {
        /// Whether the injector's close has begun: the value was not kept.
        var isClosed = false
        /// The value it replaced: the registration's earlier one (a weak one gone).
        var replaced: Replaced?
        /// The claim that ended, whose waiters the creator wakes.
        var ended: Claim?
        /// Whether another registration's value is kept for the key: maybe one replaced since.
        var sharesKey = false

        /// Whether it may have let go of something (see `DependencyInjector.letGo(by:of:)`).
        var letsGo: Bool { replaced != nil || sharesKey }
    }

    /// A kept value that keeping another replaced, held apart: rare, it makes `Keeping`, which
    /// every scoped value's creation returns from under the lock, no larger.
    final class Replaced {
        let kept: Kept

        init(_ kept: Kept) {
            self.kept = kept
        }
    }

    /// Whether a registration other than `registration` has a value kept for its key.
    private func sharesKey(with registration: Registration) -> Bool {
        let lineage = registration.lineage
        return values.contains { $0.lineage != lineage && $0.registration.key == registration.key }
    }

    /// The values other registrations than `registration` made for its key.
    func others(sharingKeyWith registration: Registration) -> [Kept] {
        let lineage = registration.lineage
        return values.filter { $0.lineage != lineage && $0.registration.key == registration.key }
    }

    /// Forgets the value kept for `registration`, which it returns.
    mutating func dropValue(of registration: Registration) -> Kept? {
        valueIndex(of: registration).map { values.remove(at: $0) }
    }

    /// Ends the claim on `registration`'s value, whose factory failed (or made it after the
    /// close began); returns the claim, whose waiters the creator wakes.
    mutating func release(claimOf registration: Registration) -> Claim? {
        endClaim(registration.lineage)
    }

    /// Ends the claim on the creation that `claimed` names; returns it, whose waiters the
    /// creator wakes.
    private mutating func endClaim(_ claimed: ObjectIdentifier) -> Claim? {
        guard let index = claimIndex(of: claimed) else { return nil }
        // Most often the last: the innermost of the creations that nest on a thread.
        return index == claims.count - 1 ? claims.removeLast() : claims.remove(at: index)
    }

    /// Forgets the values kept for `key` (a reset of that key, a decorator added for it),
    /// whichever registration made them, which it returns. Running creations go on.
    mutating func dropValues(of key: DependencyKey) -> Dropped {
        dropKept(where: { $0.registration.key == key })
    }

    /// Forgets the value made by `registration`, or by the test double or preview stand-in
    /// made in its place (a reset of the key through the keeper), which it returns.
    mutating func dropValues(madeFor registration: Registration) -> Dropped {
        dropKept(where: { $0.registration.isStored(as: registration) })
    }

    /// Forgets every kept value whose registration's scope `resets` (a reset of that scope),
    /// which it returns. Running creations go on.
    mutating func dropValues(ofScopes resets: (Scope) -> Bool) -> Dropped {
        dropKept(where: { resets($0.registration.scope) })
    }

    /// Forgets every kept value that `drops`, which it returns, in creation order.
    private mutating func dropKept(where drops: (Kept) -> Bool) -> Dropped {
        let dropped = values.filter(drops)
        if !dropped.isEmpty { values.removeAll(where: drops) }
        return Dropped(values: dropped)
    }

    /// Keeps nothing from now on; returns every kept value, for the caller to tear down and
    /// release after the unlock. Running creations go on, and are refused when they try to
    /// keep their values.
    /// `nil` when it kept nothing (an empty scope's close): nothing made, nor released, for it.
    mutating func close() -> Dropped? {
        isClosed = true
        if tuples.isEmpty {
            // Most injectors keep no tuples: no array made for none.
            guard !values.isEmpty else { return nil }
            return Dropped(values: exchange(&values, with: []), tearsDownInPlace: !awaitsTeardowns)
        }
        return Dropped(values: exchange(&values, with: []), tuples: Array(exchange(&tuples, with: [:]).values))
    }

    /// Values let go by a reset or a close: released with this, after the unlock (by
    /// `runTeardowns()`, each once its own teardown has run).
    struct Dropped {
        fileprivate var values: [Kept]
        /// The values kept per argument tuple, with their registrations (which may hold the
        /// last reference to what their factories capture), whose teardowns the caller takes.
        fileprivate var tuples: [Tuples] = []
        /// Whether each of its teardowns runs in place, synchronous (none awaited, none on the
        /// main actor), and it holds no tuples: known only for a close's (see `awaitsTeardowns`).
        private(set) var tearsDownInPlace = false

        /// Whether it holds no value: nothing to tear down or release.
        var isEmpty: Bool { values.isEmpty && tuples.isEmpty }

        /// Whether it holds values kept per argument tuple (most hold none).
        var hasTuples: Bool { !tuples.isEmpty }

        /// The teardowns of the values kept per argument tuple, in creation order.
        var tupleTeardowns: [PendingTeardown] { Tuples.teardowns(of: tuples) }

        /// The teardowns of the values, in the order they were kept.
        var teardowns: [PendingTeardown] { values.compactMap(\.teardown) }

        /// What a close does with each value, in the order they were kept: its teardown, or
        /// its release in its turn (see `Kept.release`).
        var releases: [PendingTeardown] { values.compactMap(\.release) }

        /// Runs the teardowns of the values, `injector`'s, latest first, up to the first
        /// asynchronous one, with no `PendingTeardown` made for each: what a close runs when
        /// nothing else is torn down with them. Returns the failures, and the teardowns from
        /// that one on, latest first, for the caller to await (as `PendingTeardown.runSynchronous`,
        /// which takes over when a release sets off teardowns for `injector` to await); `nil`
        /// when all ran and none failed (most closes): no empty arrays returned, nor released.
        /// Each value is taken out (moved, not copied) and released once its teardown has run.
        mutating func runTeardowns(of injector: DependencyInjector) -> (
            failures: [TeardownError.Failure], deferred: [PendingTeardown]
        )? {
            var failures: [TeardownError.Failure] = []
            return ResolutionContext.withCurrent { context in
                let began = context.beginTeardowns(of: injector)
                defer { context.endTeardowns(began: began) }
                while true {
                    // A release set off teardowns to await (a released child's): they run in
                    // their turn among the values left, as records.
                    if context.hasTakenIn {
                        let rest = PendingTeardown.runSynchronous(
                            exchange(&values, with: []).compactMap(\.release), of: injector)
                        return (failures + rest.failures, rest.deferred)
                    }
                    guard let kept = values.popLast() else { break }
                    switch kept.runTeardownIfSynchronous() {
                    case nil: break
                    case .failed(let failure)?: failures.append(failure)
                    case .asynchronous?:
                        // The values not yet torn down go with the deferred teardowns, moved out of
                        // their slots, so that each is released in its turn.
                        var deferred = kept.release.map { [$0] } ?? []
                        while let earlier = values.popLast() {
                            if let release = earlier.release { deferred.append(release) }
                        }
                        return (failures, deferred)
                    }
                }
                return failures.isEmpty ? nil : (failures, [])
            }
        }
    }
}

extension KeptValues {
    /// A value kept for one argument tuple of a registration that caches by argument
    /// (`register(_:caching:)`), or its place while a resolve makes it: its identity names that
    /// creation (in `claims`, and in `SingletonCreation` for the threads that wait for it).
    final class Tuple: @unchecked Sendable {
        // `@unchecked Sendable`: every property is touched only under the keeper's lock.
        let arguments: ArgumentTuple
        /// A value held strongly, and its teardown (or, if the registration has none, the record
        /// of its release, see `PendingTeardown.init(holding:key:order:)`).
        var value: Any?
        var teardown: PendingTeardown?
        /// A value held weakly (``ArgumentCaching/weak``).
        weak var object: AnyObject?
        /// The resolves its creation is handing the value to (its creator; on the actor face,
        /// the tasks that await it too): a bound does not let go of it meanwhile.
        var handOuts = 0
        /// Whether it was made after its registration's tuples were let go: its value is the
        /// resolves' that asked for it (a thread that waited takes it), kept by nobody.
        var isLetGo = false

        init(_ arguments: ArgumentTuple) {
            self.arguments = arguments
        }

        /// The kept value, if it is still alive.
        var kept: Any? { value ?? object }
    }

    /// The tuples kept for one registration, as its ``ArgumentCaching`` says.
    struct Tuples {
        let registration: Registration
        var entries: [ArgumentTuple: Tuple] = [:]
        /// The tuples with a value, least recently used first (a bounded cache's order).
        var recency: [ArgumentTuple] = []
        /// How many entries a weak cache holds when it next forgets the tuples whose values are gone.
        var forgetGoneAt = Tuples.forgetGoneAtFirst
        static let forgetGoneAtFirst = 16

        init(_ registration: Registration) {
            self.registration = registration
        }

        /// How the registration keeps its values (every registration with tuples has one).
        var caching: ArgumentCaching { registration.caching ?? .strong }

        /// The teardowns of the values `groups` keep, in creation order.
        static func teardowns(of groups: [Tuples]) -> [PendingTeardown] {
            if groups.isEmpty { return [] }
            return groups.flatMap { $0.entries.values.compactMap(\.teardown) }.sorted { $0.order < $1.order }
        }
    }

    /// What a resolve finds for one argument tuple's value: as `Claimed` says, the tuple's
    /// place (what a creation makes, or what a wait is for), and the tuples of a registration
    /// of the key that its holder replaced since, let go now, for the caller to tear down and
    /// release (the registration with them) after the unlock.
    struct TupleClaim {
        var claimed: Claimed
        var tuple: Tuple
        var letGo: [Tuples] = []
    }

    /// The value kept for `arguments` of `registration` (which caches by argument), or a claim
    /// on its creation (see `claim(_:of:asking:creator:)`); a task that awaits another's is
    /// counted as handed the value, as a creator is. Nothing is claimed once closed. Where the
    /// keeper keeps copies of an ancestor's registration (a test scope), the first claim for
    /// `registration` `replacesCopies`: it lets go of the tuples of another registration of its
    /// key, which `registration` replaced. (The holder's own are let go of by the replacement,
    /// or, in an installation, by its end: a failed one puts them back.)
    mutating func claim(
        _ arguments: ArgumentTuple,
        of registration: Registration,
        asking thread: ResolutionContext?,
        replacesCopies: Bool,
        creator: () -> Claim.Creator
    ) -> TupleClaim {
        guard !isClosed else { return TupleClaim(claimed: .closed, tuple: Tuple(arguments)) }
        let id = registration.lineage
        var letGo: [Tuples] = []
        if tuples[id] == nil {
            // One registration's copies per key: the earlier one's holder replaced it.
            for (other, kept) in tuples where replacesCopies && kept.registration.key == registration.key {
                if let group = tuples.removeValue(forKey: other) { letGo.append(group) }
            }
            tuples[id] = Tuples(registration)
        }
        let tuple: Tuple
        if let found = tuples[id]?.entries[arguments] {
            if let value = found.kept {
                if registration.caching?.limit != nil { noteUse(of: arguments, by: id) }
                return TupleClaim(claimed: .ready(value), tuple: found, letGo: letGo)
            }
            tuple = found
        } else {
            tuple = Tuple(arguments)  // no creation has its identity: this resolve claims it
            tuples[id]?.entries[arguments] = tuple
        }
        return TupleClaim(
            claimed: claim(
                ObjectIdentifier(tuple), of: registration, asking: thread, handingOut: tuple, creator: creator),
            tuple: tuple, letGo: letGo)
    }

    /// Notes a bounded cache's use of the value kept for `arguments`: the most recent now.
    private mutating func noteUse(of arguments: ArgumentTuple, by registration: ObjectIdentifier) {
        guard let index = tuples[registration]?.recency.firstIndex(of: arguments) else { return }
        tuples[registration]?.recency.remove(at: index)
        tuples[registration]?.recency.append(arguments)
    }

    /// What keeping a tuple's value did (see `keep(_:in:of:teardown:)`).
    struct TupleKeeping {
        /// The claim that ended, whose waiters the creator wakes.
        var ended: Claim?
        /// Whether the keeper's close has begun: the value was not kept.
        var isClosed = false
        /// Whether it was kept: not when its registration's tuples were let go meanwhile (its
        /// registration replaced or removed), nor a weak value that is no class instance.
        var isKept = false
        /// The tuples a bound let go, least recently used first.
        var evicted: [Tuple] = []
    }

    /// Keeps `value`, made for `tuple` of `registration` by the creation claimed for it (which
    /// ends), with its `teardown`, as the registration's caching says; unless closed, or the
    /// registration's tuples were let go meanwhile (the value is its resolves' alone).
    mutating func keep(
        _ value: Any,
        in tuple: Tuple,
        of registration: Registration,
        teardown: PendingTeardown?
    ) -> TupleKeeping {
        var keeping = TupleKeeping(ended: endClaim(ObjectIdentifier(tuple)))
        let id = registration.lineage
        guard !isClosed else {
            tuples[id]?.entries[tuple.arguments] = nil
            keeping.isClosed = true
            return keeping
        }
        guard let caching = tuples[id]?.caching, tuples[id]?.entries[tuple.arguments] === tuple else {
            // Its registration's tuples were let go meanwhile (replaced or removed): nobody keeps
            // it, and the tuple holds it for the threads that waited for this creation alone.
            tuple.value = value
            tuple.isLetGo = true
            return keeping
        }
        if !caching.isWeak {
            tuple.value = value
            // Without a teardown, a record of its release alone: a close releases it in its turn.
            tuple.teardown =
                teardown ?? PendingTeardown(holding: value, key: registration.key, order: CreationOrder.next())
        } else if type(of: value) is AnyObject.Type {
            tuple.object = value as AnyObject
        } else {
            tuples[id]?.entries[tuple.arguments] = nil
            return keeping
        }
        keeping.isKept = true
        if let limit = caching.limit {
            // The most recently used now; a bound passes over those a creation is still handing out.
            tuples[id]?.recency.append(tuple.arguments)
            keeping.evicted = evictBeyond(limit, of: id)
        }
        return keeping
    }

    /// Ends a resolve's hand-out of `tuple`'s value (of `registration`), unless its bound lets
    /// go of others first: those are returned, least recently used first, and the hand-out goes
    /// on while the caller tears them down (its value stays protected), to end on a later call.
    /// A bound passes over a value being handed out, so it may be over the bound at the last
    /// hand-out's end: that value is then the most recently used, and the others go.
    mutating func endHandOut(of tuple: Tuple, of registration: Registration) -> [Tuple]? {
        let id = registration.lineage
        if tuple.handOuts == 1, let limit = registration.caching?.limit,
            let count = tuples[id]?.recency.count, count > limit
        {
            noteUse(of: tuple.arguments, by: id)
            let evicted = evictBeyond(limit, of: id, sparing: tuple)
            if !evicted.isEmpty { return evicted }
        }
        tuple.handOuts -= 1
        return nil
    }

    /// The tuples of the registration `id` beyond `limit` that no creation is handing out,
    /// least recently used first, let go; `spared` is not.
    private mutating func evictBeyond(_ limit: Int, of id: ObjectIdentifier, sparing spared: Tuple? = nil) -> [Tuple] {
        guard var kept = tuples.removeValue(forKey: id) else { return [] }
        defer { tuples[id] = kept }  // out of the dictionary meanwhile: changed in place, not copied
        var evicted: [Tuple] = []
        var index = 0
        while kept.recency.count > limit, index < kept.recency.count {
            if let tuple = kept.entries[kept.recency[index]], tuple.handOuts > 0 || tuple === spared {
                index += 1
                continue
            }
            if let tuple = kept.entries.removeValue(forKey: kept.recency.remove(at: index)) { evicted.append(tuple) }
        }
        return evicted
    }

    /// Ends the claim on `tuple` of `registration`, whose creation failed; returns the claim,
    /// whose waiters the creator wakes. A tuple with no value is forgotten.
    mutating func release(claimOf tuple: Tuple, of registration: Registration) -> Claim? {
        if tuple.kept == nil, tuples[registration.lineage]?.entries[tuple.arguments] === tuple {
            tuples[registration.lineage]?.entries[tuple.arguments] = nil
        }
        return endClaim(ObjectIdentifier(tuple))
    }

    /// Forgets the tuples of `registration`'s weak cache whose values are gone, nobody making
    /// them again, once its entries have doubled since the last time (amortised: no walk per
    /// creation). A cache keyed by request or user IDs met each tuple once, and kept them all,
    /// with their arguments, for good. Returns what it forgot and the objects its weak reads
    /// held, for the caller to release after the unlock, never under it.
    mutating func forgetGoneTuples(of registration: Registration) -> (gone: [Tuple], held: [AnyObject]) {
        let id = registration.lineage
        guard var kept = tuples[id], kept.caching.isWeak, kept.entries.count >= kept.forgetGoneAt else {
            return ([], [])
        }
        var held: [AnyObject] = []
        var gone: [Tuple] = []
        for (arguments, tuple) in kept.entries {
            if let object = tuple.object {
                held.append(object)
            } else if tuple.value == nil, claimIndex(of: ObjectIdentifier(tuple)) == nil {
                gone.append(tuple)
                kept.entries[arguments] = nil
            }
        }
        kept.forgetGoneAt = max(Tuples.forgetGoneAtFirst, kept.entries.count * 2)
        tuples[id] = kept
        return (gone, held)
    }

    /// Lets go of the tuples kept for `key` (a reset of the key, a decorator added for it or
    /// taken back): those of `registration` alone when given (the keeper's own registration of
    /// the key: another's are an installation's to put back), else whichever registration made
    /// them (a test scope's copies). Creations running go on, and keep theirs.
    mutating func dropTuples(of key: DependencyKey, madeBy registration: Registration? = nil) -> [Tuple] {
        var dropped: [Tuple] = []
        for (id, kept) in tuples
        where kept.registration.key == key && registration.map({ $0.isModification(of: kept.registration) }) != false {
            let values = kept.entries.filter { claimIndex(of: ObjectIdentifier($0.value)) == nil }
            for arguments in values.keys { tuples[id]?.entries[arguments] = nil }
            tuples[id]?.recency.removeAll()
            dropped += values.values
        }
        return dropped
    }

    /// Whether tuples of `registration` are kept here (or being made).
    func keepsTuples(of registration: Registration) -> Bool {
        tuples[registration.lineage] != nil
    }

    /// Lets go of every tuple of `registration`, replaced or removed for good: a creation
    /// running now hands its value to its resolves alone (see `keep(_:in:of:teardown:)`).
    mutating func dropTuples(madeBy registration: Registration) -> Tuples? {
        tuples.removeValue(forKey: registration.lineage)
    }

    /// The claim on the creation of the value for `arguments` of the registration of `key`
    /// that keeps tuples here, if one runs (for tests, which ask whether a resolve waits for it).
    func creation(of arguments: ArgumentTuple, for key: DependencyKey) -> Claim? {
        guard let tuple = tuples.values.first(where: { $0.registration.key == key })?.entries[arguments] else {
            return nil
        }
        return claimIndex(of: ObjectIdentifier(tuple)).map { claims[$0] }
    }
}

/// An injector's `KeptValues`, behind its registry's lock: one lock per injector, so an
/// opened scope allocates one.
struct LockedKeptValues {
    let registry: Locked<Registry>

    /// Runs `body`, which must not call user code nor release a stored value, under the lock.
    @inline(__always)
    func withLock<Result>(_ body: (inout KeptValues) -> Result) -> Result {
        registry.withLock { body(&$0.kept) }
    }
}

extension DependencyInjector {
    /// What this injector keeps for `registration` in its store of kept values, for a resolve.
    func keptValue(of registration: Registration) -> Any? {
        keptValues?.withLock { $0.resolvedValue(of: registration) }
    }

    /// Waits in `SingletonCreation` for `claim`, another thread's creation of a value of `key`
    /// kept here, as for a singleton's creator (the wait is checked for a cycle; the creator
    /// wakes it, see `Claim.wakeThreads`). A task's creation runs an async factory, which this
    /// thread could not run either: it is the actor face's to await.
    func wait(
        for claim: KeptValues.Claim, of key: DependencyKey, context: ResolutionContext, handingBack: Registration?
    ) throws(InjectionError) {
        guard claim.isThread else {
            throw .factoryFailed(key, path: context.path + [key], underlying: RequiresAwait())
        }
        try SingletonCreation.shared.wait(
            for: SingletonCreation.Key(owner: ObjectIdentifier(self), registration: claim.registration),
            of: key, context: context, handingBack: handingBack
        ) {
            registry.withLock { $0.kept.awaitedCreator(of: claim) }
        }
    }

    /// Whether this injector keeps a value of `registration`, asked by diagnostics. The value
    /// (a weak one may be its last reference) is released after the lock.
    func keepsValue(of registration: Registration) -> Bool {
        keptValues?.withLock { $0.valueAsIs(of: registration) } != nil
    }

    /// What this injector keeps for `registration` in its store of kept values, for a creation
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
        let kept = keptValues.withLock { $0.keep(value, producedBy: registration, heldBy: holder, keptBy: self) }
        return SingletonCreation.Keeping(isClosed: kept.isClosed, letGo: letGo(by: kept, of: registration))
    }

    /// The teardowns of what keeping a value of `registration` here let go of: the value it
    /// replaced, and those of registrations replaced since (`letGoOfReplaced(by:)`), for the
    /// caller to run after the unlock.
    func letGo(by keeping: KeptValues.Keeping, of registration: Registration) -> [PendingTeardown] {
        var letGo = keeping.replaced?.kept.teardown.map { [$0] } ?? []
        if keeping.sharesKey { letGo += letGoOfReplaced(by: registration) }
        return letGo
    }

    /// Lets go of the values kept here for the key of `registration` (whose value was just
    /// kept) by other registrations that their holders no longer store: replaced or removed
    /// since, their values were for a resolve of the key, which now gets `registration`'s.
    /// The values of overrides still stored, above the scope or below it, stay. Their
    /// teardowns, for the caller to run after the unlock.
    func letGoOfReplaced(by registration: Registration) -> [PendingTeardown] {
        guard let keptValues, parent != nil else { return [] }
        let others = keptValues.withLock { $0.others(sharingKeyWith: registration) }
        let replaced = others.filter { $0.isReplaced(keptBy: self) }
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
        registry.withLock { $0.stores(registration) }
    }
}
