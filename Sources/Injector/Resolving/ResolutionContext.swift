/// The resolutions in progress on one thread, innermost last.
///
/// Sync factories run a chain (`App → Checkout → PaymentService`) on one thread, so a
/// per-thread stack gives every error its path and finds cycles. It is touched only when a
/// factory runs. Before a factory runs, it also checks that the thread has `stackReserve`
/// left, so a deep graph throws `resolutionTooDeep` instead of overflowing.
final class ResolutionContext: @unchecked Sendable {
    /// The stack a thread must have left for a factory to start on it: 64 KB.
    ///
    /// Between two checks runs one level of a chain: the library's frames (Linux x86-64: a
    /// transient's level takes 1 KB in release, 2.7 KB unoptimised, 3.5 KB under TSan; a
    /// singleton's 1.3, 4.3 and 5.6 KB), then the user's factory. A failure adds up to 15 KB
    /// (the first in a process builds the metadata of `[DependencyKey]`). 64 KB leaves the
    /// factory some 40 KB, at an eighth of the smallest common stack (512 KB, Apple's
    /// secondary threads and dispatch workers).
    static let stackReserve: UInt = 64 << 10

    // `@unchecked Sendable`: the frames and diagnostics are touched only by the owning
    // thread; `waitingFor` and `waitingPath` only under `SingletonCreation.shared`'s lock.
    // The frames are a raw buffer, not an `Array` (its appends and exclusivity checks were a
    // third of a factory run's bookkeeping), and do not retain their registrations (two
    // atomics a run): a frame lives between `enter` and `leave`, while the caller holds it.
    private var frames: UnsafeMutablePointer<Unmanaged<Registration>>
    private var frameCapacity = 16
    private var frameCount = 0
    // Factories run so far (tells a cache hit from a miss); whether an observer is running.
    var factoryRuns = 0
    /// Values made so far by argument caches on this thread (tells an observed resolve of a
    /// `caching:` registration whether it made its value or found it).
    var argumentCreations = 0
    var isNotifyingObserver = false
    /// The singleton creations started on this thread's stack, nested, and running there
    /// until they first suspend (see `AsyncSingletonCreation.start`).
    var immediateCreations = 0
    /// Resolves of `@Inject` properties of objects made by hand (no builder runs) in progress
    /// here, past the ready table: a strict scope's refusal of such a property's own key is
    /// recorded by the wrapper, at the property's declaration (see `DependencyInjector.refusal`).
    var handMadeWrapperResolves = 0
    /// Checked constructions (`DependencyInjector.make`) running on this thread: builders,
    /// as factory runs are, that throw the failures of the wrappers initialised inside them.
    private var constructions = 0
    /// The failed `@Inject` wrappers that the builders running here have yet to throw, each
    /// with the builder's level (see `captureLevel`), innermost last. Empty but on failure.
    /// Touched only off the hot path: its mutations call closures, so every access to it pays
    /// a run-time exclusivity check (a fifth of a transient's resolve, read on every level).
    private var captured: [(level: Int, failure: CapturedWrapperFailure)] = []
    /// `captured.count`, which the hot path reads instead (an `Int` needs no run-time check).
    private var capturedCount = 0
    /// The values made so far in this thread's top-level resolve that its later requests
    /// share: those of `.graph` registrations, and one whose completion is running (so that
    /// the completion may resolve what refers back to it). Emptied when the outermost factory
    /// returns.
    private var shared = SharedValues<Any>()
    /// Whether `shared` has values, which the hot path reads instead (a `Bool` needs no
    /// run-time exclusivity check; reading `shared` did, four times a request).
    private(set) var isSharing = false
    // Read by other threads looking for a cycle between waiters.
    var waitingFor: SingletonCreation.Key?
    var waitingPath: [DependencyKey] = []
    /// Whether a task's resolve (the actor face's) has the core run its synchronous part on
    /// this thread now, and awaits what it would wait for: set around that part (see
    /// `handsBackWaits(atDepth:)`).
    var awaitsCreations = false
    /// The end of another thread's creation that the task's resolve is to await before it asks
    /// again, handed back by the wait that found the creation running (see `awaitsCreations`).
    var handedBack: AsyncSingletonCreation?
    /// The injector whose teardowns this thread runs now (a close's, a reset's, or a teardown
    /// task's between its awaits), if any: what a release there sets off for that injector to
    /// await (a released child's teardowns: its `deinit` cannot) is taken into the run, to run
    /// next, in its turn, not in a task of its own (see `DependencyInjector.handOver(_:)`).
    private var teardownsRunFor: ObjectIdentifier?
    /// What that run took in since it last asked; empty but then.
    private var takenIn: [PendingTeardown] = []
    /// Whether `takenIn` has any, which the run reads after each release (a `Bool` needs no
    /// run-time exclusivity check).
    private(set) var hasTakenIn = false
    /// The runs that runs of other injectors' interrupted on this thread (a release in one set
    /// off another), innermost last, each with what it took in and has not read yet: what is
    /// set off for one of them is taken into it. Rare: counted apart, so that a run's begin and
    /// end touch no array (each access of one is checked at run time).
    private var interruptedRuns: [(injector: ObjectIdentifier, takenIn: [PendingTeardown])] = []
    private var interruptedCount = 0
    // The owning thread's stack; `stackLow` is 0 (the check never fires) where unknown.
    private let stackLow: UInt
    private let stackSize: Int

    private init() {
        frames = .allocate(capacity: frameCapacity)
        let stack = ThreadStack.current()
        stackLow = stack?.low ?? 0
        stackSize = stack?.size ?? 0
    }

    deinit {
        frames.deallocate()
    }

    /// The registrations whose factories are running, outermost first.
    private var running: UnsafeMutableBufferPointer<Unmanaged<Registration>> {
        UnsafeMutableBufferPointer(start: frames, count: frameCount)
    }

    /// The keys being resolved, outermost first.
    var path: [DependencyKey] { frameCount == 0 ? [] : running.map { $0.takeUnretainedValue().key } }

    /// The registration whose factory is running innermost, if any.
    var innermost: Registration? { running.last?.takeUnretainedValue() }

    /// The innermost registration running here whose value its scope keeps (see
    /// `DependencyInjector.checkScoped`), an argument cache's included; `nil` when only
    /// transients and graph values run.
    var innermostKept: Registration? {
        innermostKeptUnretained?.takeUnretainedValue()
    }

    /// `innermostKept`, not retained: it runs, and so lives, while this thread's resolve does.
    var innermostKeptUnretained: Unmanaged<Registration>? {
        running.last { $0._withUnsafeGuaranteedRef { $0.isKept } }
    }

    /// The value `registration` made earlier in this resolve for its later requests, built by
    /// `injector` (see `SharedValues`), or `nil`
    /// when there is none; throws `circularDependency` when its factory is running here.
    @inline(__always)
    func madeEarlier(_ registration: Registration, builtBy injector: DependencyInjector) throws(InjectionError)
        -> Any?
    {
        if isSharing, let value = shared.value(madeBy: registration, builtBy: injector) { return value }
        try checkNotResolving(registration)
        return nil
    }

    /// Shares `value` with the rest of this resolve as what `registration` makes when
    /// `injector` builds it.
    func share(_ value: Any, madeBy registration: Registration, builtBy injector: DependencyInjector) {
        _ = shared.share(value, madeBy: registration, builtBy: injector)
        isSharing = !shared.isEmpty
    }

    /// Stops sharing what `registration` made, built by `injector` (its completion is done).
    func stopSharing(_ registration: Registration, builtBy injector: DependencyInjector) {
        _ = shared.stopSharing(registration, builtBy: injector)
        isSharing = !shared.isEmpty
    }

    /// Whether a wait for another thread's creation, made by a resolve running `depth` frames
    /// deep (the frame of its own run, for an argument cache's value: 1; otherwise 0), hands the
    /// creation's end back to the task's resolve (`handedBack`) instead of sleeping: only where
    /// the task's resolve asks, at the top of this thread's stack, never inside a factory, whose
    /// synchronous code cannot suspend. A task then suspends until the creation ends, and hears
    /// its own cancellation, where sleeping blocked a thread of the cooperative pool.
    func handsBackWaits(atDepth depth: Int = 0) -> Bool {
        awaitsCreations && frameCount == depth
    }

    /// `body`, user code that the core runs outside any factory's frame (a teardown) during a
    /// task's resolve: a wait its own resolves meet is theirs, slept on, never handed back to
    /// the task's resolve around it, which would not await it (see `handsBackWaits(atDepth:)`).
    func runningUserCode<Result>(_ body: () -> Result) -> Result {
        guard awaitsCreations else { return body() }
        awaitsCreations = false
        defer { awaitsCreations = true }
        return body()
    }

    /// Marks what runs on this thread until `endTeardowns(began:)` as a run of `injector`'s
    /// teardowns (see `teardownsRunFor`); whether it began one. Within a run of the same
    /// injector's (the rest of that run, once it took something in), it begins none: the rest
    /// reads what the run took in. A run of another's is interrupted (see `interruptedRuns`).
    func beginTeardowns(of injector: DependencyInjector) -> Bool {
        let running = ObjectIdentifier(injector)
        if teardownsRunFor == running { return false }
        if let interrupted = teardownsRunFor {
            interruptedRuns.append((interrupted, exchange(&takenIn, with: [])))
            interruptedCount += 1
        }
        teardownsRunFor = running
        hasTakenIn = false
        return true
    }

    /// Ends the run that `beginTeardowns(of:)` began, if it did (`began`), read to its end: the
    /// run it interrupted goes on, with what was taken into it meanwhile.
    func endTeardowns(began: Bool) {
        guard began else { return }
        guard interruptedCount > 0 else {
            teardownsRunFor = nil
            return
        }
        interruptedCount -= 1
        let resumed = interruptedRuns.removeLast()
        teardownsRunFor = resumed.injector
        takenIn = resumed.takenIn
        hasTakenIn = !takenIn.isEmpty
    }

    /// Takes `teardowns` (emptied) into the innermost run of `injector`'s teardowns that this
    /// thread is in; `false`, leaving them, when it is in none.
    func takeIn(_ teardowns: inout [PendingTeardown], of injector: DependencyInjector) -> Bool {
        let id = ObjectIdentifier(injector)
        if teardownsRunFor == id {
            takenIn += exchange(&teardowns, with: [])
            hasTakenIn = true
            return true
        }
        guard interruptedCount > 0, let index = interruptedRuns.lastIndex(where: { $0.injector == id }) else {
            return false
        }
        interruptedRuns[index].takenIn += exchange(&teardowns, with: [])
        return true
    }

    /// What the run took in since it last asked, taken out.
    func takeTakenIn() -> [PendingTeardown] {
        hasTakenIn = false
        return exchange(&takenIn, with: [])
    }

    /// Ends the synchronous part of a task's resolve (see `awaitsCreations`), thrown or not:
    /// nothing handed back stays for the next.
    func endAwaitingCreations() {
        awaitsCreations = false
        handedBack = nil
    }

    /// Throws `circularDependency` when `registration`'s factory is already running here.
    func checkNotResolving(_ registration: Registration) throws(InjectionError) {
        let identity = Unmanaged.passUnretained(registration).toOpaque()
        if running.contains(where: { $0.toOpaque() == identity }) {
            throw .circularDependency(path: path + [registration.key])
        }
    }

    /// Puts `registration` on top of the stack; `leave()` takes it off. Not inlined, for the
    /// stack (its locals are gone while the factory runs).
    ///
    /// - Throws: ``InjectionError/resolutionTooDeep(path:stackSize:)`` when this thread has
    ///   less than `stackReserve` of stack left.
    @inline(never)
    func enter(_ registration: Registration) throws(InjectionError) {
        // An address below `stackLow` (an unreported stack) wraps around, so it passes.
        var marker: UInt8 = 0
        let address = withUnsafeMutablePointer(to: &marker) { UInt(bitPattern: $0) }
        if address &- stackLow < Self.stackReserve { throw tooDeep(registration) }
        if frameCount == frameCapacity { grow() }
        (frames + frameCount).initialize(to: .passUnretained(registration))
        frameCount += 1
        if capturedCount != 0 { dropCaptured(from: captureLevel) }
    }

    /// Takes the innermost registration off the stack, after its factory has run; after the
    /// outermost, ends the sharing of its values.
    func leave() {
        frameCount -= 1
        if frameCount == 0, isSharing { endSharing() }
    }

    // MARK: Failed wrappers

    /// How many builders are running on this thread: the innermost's level.
    private var captureLevel: Int { frameCount + constructions }

    /// Whether a builder (a factory run, a checked construction) runs on this thread.
    var isBuilding: Bool { captureLevel > 0 }

    /// Keeps `failure` for the innermost builder running on this thread, which throws it when
    /// it returns; `false` when none runs here.
    ///
    /// What a builder captured is kept until it is thrown (`throwCapturedFailure`,
    /// `throwFailureOfLeftBuilder`), or a check at a lower level, or the next builder at the
    /// same level, finds it stale: a builder that threw leaves its captures behind.
    func capture(_ failure: WrapperFailure) -> Bool {
        guard captureLevel > 0 else { return false }
        captured.append((captureLevel, CapturedWrapperFailure(failure: failure, pathIndex: frameCount)))
        capturedCount = captured.count
        return true
    }

    /// Throws the first failure of the wrappers initialised while the innermost builder ran,
    /// which made `value`; returns when none failed (one comparison).
    @inline(__always)
    func throwCapturedFailure<Value>(building value: Value) throws(InjectionError) {
        if capturedCount != 0 { try throwCaptured(at: captureLevel, building: value) }
    }

    /// Throws the first failure of the wrappers initialised while the builder that has just
    /// left (`leave()`) ran, which made `value`; returns when none failed (one comparison).
    /// For the transient's path, which checks after its run, so that the run's frame, on the
    /// stack at every level of a chain, keeps no copy of the value (unoptimised, that cost a
    /// twentieth of the depth). Borrowed: in unspecialised generic code, a consumed value is
    /// moved through its value witnesses.
    @inline(__always)
    func throwFailureOfLeftBuilder<Value>(building value: borrowing Value) throws(InjectionError) {
        if capturedCount != 0 { try throwCaptured(at: captureLevel + 1, building: copy value) }
    }

    /// Throws the first failure the builder at `level` captured, and forgets the rest.
    @inline(never)
    private func throwCaptured<Value>(at level: Int, building value: Value) throws(InjectionError) {
        let first = captured.firstIndex { $0.level == level }
        let failure = first.map { captured[$0].failure }
        dropCaptured(from: level)
        if let failure { throw failure.error(building: value) }
    }

    /// Forgets what the innermost builder captured, when it throws something else.
    func dropCapturedOfInnermost() {
        if capturedCount != 0 { dropCaptured(from: captureLevel) }
    }

    /// Forgets what the builders at `level` and deeper captured: released once `captured` is
    /// no longer being written, since a failure holds a factory's error, whose `deinit` may
    /// resolve on this thread (see `endSharing`).
    @inline(never)
    private func dropCaptured(from level: Int) {
        var dropped: [(level: Int, failure: CapturedWrapperFailure)] = []
        var kept: [(level: Int, failure: CapturedWrapperFailure)] = []
        for entry in captured {
            if entry.level >= level { dropped.append(entry) } else { kept.append(entry) }
        }
        captured = kept
        capturedCount = kept.count
        withExtendedLifetime(dropped) {}
    }

    /// Runs `body` as a checked construction: a builder whose wrappers' failures it throws.
    func construct<Value>(_ body: () throws -> Value) throws -> Value {
        constructions += 1
        defer { constructions -= 1 }
        if capturedCount != 0 { dropCaptured(from: captureLevel) }
        let value = try body()
        try throwCapturedFailure(building: value)
        return value
    }

    /// Lets go of the values this resolve shared, and their registrations: outside any lock,
    /// and only once `shared` is no longer being written, since a `deinit` that resolves on
    /// this thread reads it (released by the assignment itself, they stopped the program on
    /// a simultaneous access).
    @inline(never)
    private func endSharing() {
        let ended = exchange(&shared, with: SharedValues())
        isSharing = false
        withExtendedLifetime(ended) {}
    }

    /// Doubles the room for frames.
    @inline(never)
    private func grow() {
        let larger = UnsafeMutablePointer<Unmanaged<Registration>>.allocate(capacity: frameCapacity * 2)
        larger.moveInitialize(from: frames, count: frameCount)
        frames.deallocate()
        frames = larger
        frameCapacity *= 2
    }

    /// The error for `registration`, whose factory this thread has no stack left to run.
    @inline(never)
    private func tooDeep(_ registration: Registration) -> InjectionError {
        .resolutionTooDeep(path: path + [registration.key], stackSize: stackSize)
    }

    /// This thread's context.
    @inline(__always)
    static var current: ResolutionContext { contexts.current }

    /// `body` applied to this thread's context, not retained for it.
    static func withCurrent<Result>(_ body: (ResolutionContext) -> Result) -> Result {
        contexts.withCurrent(body)
    }

    /// Each thread's context, released when the thread ends.
    private static let contexts = ThreadLocalObject { ResolutionContext() }
}
