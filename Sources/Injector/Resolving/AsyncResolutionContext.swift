/// The resolutions in progress in the current task and the tasks it is working for.
///
/// An async chain hops threads, so a per-thread stack (the sync face's) would lose it; a
/// task-local follows it across `await`s, into child tasks, and into the task that creates a
/// singleton (which copies its first requester's task-locals).
enum AsyncResolutionContext {
    /// One resolution in progress.
    struct Frame: Sendable {
        let registration: Registration
        /// The number of the shared creation this frame runs (a singleton's, a weak, scoped,
        /// `.graph` or cached value's). Not the creation: a task that the factory starts copies these frames,
        /// and may outlive the run; the creation keeps the value it made, which that task must
        /// not keep alive (a `.weak` value, a singleton dropped by `reset`).
        let creation: AsyncSingletonCreation.Number?
        /// The top-level resolve this run belongs to, which knows whether it is in progress.
        let resolve: Resolve
        /// This run's number in `resolve`.
        let run: Resolve.Run
    }

    /// What the innermost run in this task bound, or in the task that started it: every run
    /// binds, but a transient's asked for through a run's resolver in that run's task (see
    /// `AsyncDependencyInjector.run`).
    @TaskLocal static var bound = Bound()

    /// A run's frames and the actor face whose factory runs, bound as one task-local: a
    /// binding cost a run more than the rest of its bookkeeping.
    struct Bound: Sendable {
        var frames = Frames()
        /// The actor face's factory running in this task, if any (see `ActorFaceCurrent`).
        var face: ActorFaceCurrent?
    }

    /// The resolutions in progress in this task: the bound frames, or, deeper, those of the
    /// innermost run of this task that did not bind (its resolve keeps them, see `Resolve`).
    /// A task started inside such a run sees the bound frames around it.
    static var frames: Frames {
        let bound = bound.frames
        return bound.shared?.unboundFrames(after: bound.innermostRun) ?? bound
    }

    /// The keys being resolved in this task, outermost first.
    static var keys: [DependencyKey] { frames.keys }

    /// Throws `circularDependency` when `registration`'s factory is already running in `frames`.
    static func checkNotResolving(_ registration: Registration, in frames: Frames) throws(InjectionError) {
        if frames.contains(registration) {
            throw .circularDependency(path: frames.keys + [registration.key])
        }
    }
}

extension AsyncResolutionContext {
    /// The resolutions in progress as a persistent list, each level a node that shares the
    /// levels it works for (an array copied at each level grows quadratically). Each
    /// level checks for a cycle by walking the nodes near the top; deeper, to keep the time
    /// linear, each node extends a persistent set of the chain's registrations.
    ///
    /// One reference, the innermost node, whose frame names the top-level resolve: what a run
    /// carries (in its resolver, its bindings, each task-local read of them) is retained once
    /// per copy, not once per field.
    struct Frames: Sendable {
        /// The innermost level, or `nil` when nothing is being resolved.
        private let innermost: Node?

        init() {
            innermost = nil
        }

        fileprivate init(innermost: Node?) {
            self.innermost = innermost
        }

        /// The top-level resolve these frames belong to, which its factories share while it
        /// runs, or `nil` when nothing is being resolved: the innermost frame's (a node's frame
        /// and the frames `appending` returns with it always name the same resolve).
        var shared: Resolve? { innermost?.frame.resolve }

        /// These frames without the innermost: what a run waits from when it waits for
        /// another creation of its own registration (a value cached by argument, see
        /// `AsyncResolver.cachedValue`), so that a cycle's path names the key once. For the
        /// wait only (its path, its cycle check, which read each frame's own resolve): their
        /// `shared` is the outer level's resolve, which may be an earlier one, or none.
        var outer: Frames { Frames(innermost: innermost?.parent) }

        /// These frames with a run of `registration` (creation number `creation`, if any) inside the
        /// innermost, and the run's number, which the caller ends (`end(_:)`) when the factory
        /// returns. After the top-level resolve has ended (in a task that one of its factories
        /// started), the run begins a top-level resolve of its own. These frames are not copied.
        ///
        /// `unboundIn`: the run is not to bind the frames if it runs in that task (whose
        /// bindings are the resolve's) within the resolve: its resolve then keeps them for the
        /// task (`Resolve.unboundFrames`), and `isUnbound` says so. A run that begins a resolve of
        /// its own binds them (a task it starts finds them no other way).
        func appending(_ registration: Registration, creation: UInt64? = nil, unboundIn task: UInt? = nil) -> (
            frames: Frames, run: Resolve.Run, isUnbound: Bool
        ) {
            let depth = count + 1
            var registrations: RegistrationSet?
            if depth > Node.walkedDepth {
                var above = innermost?.registrations
                if above == nil {
                    // The first level past the walked ones: a set of those above it.
                    walk { frame in
                        above = RegistrationSet.inserting(frame.registration, into: above)
                        return true
                    }
                }
                registrations = RegistrationSet.inserting(registration, into: above)
            }
            let unbound = task.flatMap { task in task != 0 && task == CurrentTask.address ? task : nil }
            let (run, node, isUnbound) = Resolve.begin(
                registration, creation: creation, after: innermost, depth: depth, registrations: registrations,
                unboundIn: unbound)
            return (Frames(innermost: node), run, isUnbound)
        }

        /// Ends `run` (see `appending(_:creation:unboundIn:)`).
        func end(_ run: Resolve.Run) {
            shared?.end(run)
        }

        /// Keeps the failure of an `@Inject` wrapper initialised in this task for the
        /// innermost run, which throws it when its factory returns (`takeCaptured`): the task's
        /// counterpart of `ResolutionContext.capture`, since an async factory hops threads.
        /// `false` when no run is in progress here, or the innermost has ended (a task that a
        /// factory started has outlived it).
        func capture(_ failure: CapturedWrapperFailure) -> Bool {
            guard let frame = innermost?.frame else { return false }
            return frame.resolve.capture(failure, for: frame.run)
        }

        /// What the innermost run captured so far, taken out: thrown by the run, as the error of
        /// the value it made.
        func takeCaptured() -> CapturedWrapperFailure? {
            guard let frame = innermost?.frame else { return nil }
            return frame.resolve.takeCaptured(of: frame.run)
        }

        /// Whether `frame`'s factory is still running: not when these frames were copied by a
        /// task that a factory started, and the factory has returned since.
        private func isRunning(_ frame: Frame) -> Bool {
            frame.resolve.isRunning(frame.run)
        }

        /// How many resolutions are in progress.
        var count: Int { innermost?.depth ?? 0 }

        /// The registration of the innermost frame: the run these frames were made for.
        var innermostRegistration: Registration? { innermost?.frame.registration }

        /// The number of the innermost frame's run in its resolve.
        var innermostRun: Resolve.Run? { innermost?.frame.run }

        /// The keys being resolved, outermost first.
        var keys: [DependencyKey] {
            var keys: [DependencyKey] = []
            keys.reserveCapacity(count)
            walkRunning { frame in
                keys.append(frame.registration.key)
                return true
            }
            keys.reverse()
            return keys
        }

        /// Whether `registration`'s factory (of any version of its lineage) is running in one of
        /// these frames.
        func contains(_ registration: Registration) -> Bool {
            // The set has every level's registration, ended runs too: a miss is certain, a hit
            // is checked by the walk.
            if let registrations = innermost?.registrations, !registrations.contains(registration) { return false }
            var found = false
            walk { frame in
                found = frame.registration.lineage == registration.lineage && isRunning(frame)
                return !found
            }
            return found
        }

        /// Whether one of these frames runs `creation` (its factory has not returned). A run of
        /// its registration with no number of its own (a value cached by argument, made inside
        /// another creation, see `AsyncResolver.cachedValue`) is part of the nearest creation around it,
        /// and known by that one's number.
        func runs(_ creation: AsyncSingletonCreation) -> Bool {
            let registration = creation.registration
            if let registrations = innermost?.registrations, !registrations.contains(registration) { return false }
            var unnumberedRun = false
            var found = false
            walkRunning { frame in
                if frame.registration.lineage == registration.lineage {
                    if frame.creation == creation.number { found = true }
                    if frame.creation == nil { unnumberedRun = true }
                }
                if !found, let number = frame.creation {
                    found = unnumberedRun && number == creation.number
                    unnumberedRun = false
                }
                return !found
            }
            return found
        }

        /// The key of the innermost resolution in progress, if any.
        var innermostKey: DependencyKey? {
            var key: DependencyKey?
            walkRunning { frame in
                key = frame.registration.key
                return false
            }
            return key
        }

        /// The innermost registration running in these frames whose value its scope (or its
        /// argument cache) keeps.
        var innermostKept: Registration? {
            var kept: Registration?
            // Whether it is kept first, a stored flag: whether it runs takes the resolve's lock.
            walk { frame in
                if frame.registration.isKept, isRunning(frame) { kept = frame.registration }
                return kept == nil
            }
            return kept
        }

        /// The number of the creation of the innermost frame that runs one, and the keys of the
        /// frames inside it (outermost first); `nil` when no frame runs a creation.
        var innermostCreation: (creation: AsyncSingletonCreation.Number, keysInside: [DependencyKey])? {
            var creation: AsyncSingletonCreation.Number?
            var inside: [DependencyKey] = []
            walkRunning { frame in
                creation = frame.creation
                if creation == nil { inside.append(frame.registration.key) }
                return creation == nil
            }
            return creation.map { ($0, inside.reversed()) }
        }

        /// `walk(_:)` over the frames whose run is in progress.
        private func walkRunning(_ body: (Frame) -> Bool) {
            walk { frame in isRunning(frame) ? body(frame) : true }
        }

        /// Calls `body` with each frame, innermost first, while it returns `true`.
        ///
        /// The nodes are walked unretained: `innermost`, which these frames hold while the
        /// walk runs, holds each node above it, and no node changes. Walked retained, each level
        /// (and the innermost, bound to a name first) costs a retain and a release.
        private func walk(_ body: (Frame) -> Bool) {
            guard var node = innermost.map({ Unmanaged.passUnretained($0) }) else { return }
            while node._withUnsafeGuaranteedRef({ body($0.frame) }),
                let parent = node._withUnsafeGuaranteedRef({ $0.parent.map { Unmanaged.passUnretained($0) } })
            {
                node = parent
            }
        }
    }

    /// One top-level async resolve: the runs of its factories in progress, and the values
    /// its later requests share (as `ResolutionContext` keeps them for a thread): `.graph`
    /// values, and one whose completion is running. Its tasks may run factories at once,
    /// hence the lock. A task that one of its factories starts copies its frames and may
    /// outlive it: what is running is kept here, not in the frames, so that such a task
    /// sees the runs that have ended as ended.
    ///
    /// A struct around its lock, one object: a class holding the lock was an allocation more
    /// per top-level resolve, and a pointer more to follow at each use.
    struct Resolve: Sendable {
        /// A run's number within its resolve, in the order they began; the outermost's is 0.
        typealias Run = Int

        private struct State {
            /// Which runs, by number, are in progress (no hashing: numbers are dense).
            var running = Runs()
            /// How many runs are in progress; the resolve has ended at 0.
            var inProgress = 1
            var values = Shared()
            /// The `.graph` values being made, where the resolve's child tasks may ask for one
            /// at once: the first makes it, the others await it (see `claim`). Apart from
            /// `values`, which `end` takes out whole: a wider one slows every resolve.
            var creations = [Shared.Key: AsyncSingletonCreation]()
            /// The first failed `@Inject` wrapper of each run in progress, for the run to throw
            /// when its factory returns (see `Frames.capture`). Empty but on failure.
            var captured = [Run: CapturedWrapperFailure]()
            /// The runs in progress that did not bind their frames, in the order they began,
            /// each with its task (`CurrentTask.address`): a task's own are nested, its
            /// innermost last. Empty but while such runs are in progress.
            var unbound = UnboundRuns()
        }

        /// The values its runs share, and the `.graph` values being made.
        typealias Shared = SharedValues<any Sendable>

        private let state: Locked<State>

        /// A resolve whose outermost run, 0, is in progress.
        init() {
            state = Locked(State())
        }

        /// How many failures `capture` keeps in all resolves: while none, a run's
        /// `takeCaptured` takes no lock.
        private static let capturedCount = AtomicCount()

        /// A new run of `registration` (creation number `creation`, if any) in the resolve of
        /// `innermost` (the innermost node of the frames it runs inside), and the node of its
        /// frame, at `depth`, with `registrations`; or, when there is none or it has ended, the
        /// outermost run of a new resolve. A new run of that resolve made in `task` (the
        /// current one) is kept as unbound for it (see `State.unbound`).
        ///
        /// The node made here from the arguments: made by a closure of the caller's, which
        /// captured what it is made of, it cost each run a retain and a release more (of the
        /// registration, and of `innermost`).
        fileprivate static func begin(
            _ registration: Registration,
            creation: AsyncSingletonCreation.Number?,
            after innermost: Node?,
            depth: Int,
            registrations: RegistrationSet?,
            unboundIn task: UInt?
        ) -> (run: Run, node: Node, isUnbound: Bool) {
            // The resolve read in place from the innermost node: copied out, it cost a retain
            // and a release a run.
            if let (run, node) = innermost?.frame.resolve.state.withLock({ state -> (Run, Node)? in
                guard state.inProgress > 0, let innermost else { return nil }
                state.inProgress += 1
                let run = state.running.begin()
                let frame = Frame(
                    registration: registration, creation: creation, resolve: innermost.frame.resolve, run: run)
                let node = Node(frame, parent: innermost, depth: depth, registrations: registrations)
                if let task {
                    state.unbound.append(UnboundRun(run: run, task: task, node: .passUnretained(node)))
                }
                return (run, node)
            }) {
                return (run, node, task != nil)
            }
            let frame = Frame(registration: registration, creation: creation, resolve: Resolve(), run: 0)
            return (0, Node(frame, parent: innermost, depth: depth, registrations: registrations), false)
        }

        /// Ends `run`; the last run in progress ends the resolve, whose shared values are
        /// released here, after the unlock. Not the outermost: a singleton's creation, which
        /// runs in a task of its own, goes on when the resolve that started it is cancelled,
        /// and its completion still shares values with its dependencies.
        func end(_ run: Run) {
            state.update { state in
                state.running.end(run)
                state.inProgress -= 1
                let captured = state.captured.isEmpty ? nil : state.captured.removeValue(forKey: run)
                if captured != nil { Self.capturedCount.decrement() }
                let values = state.inProgress == 0 ? exchange(&state.values, with: Shared()) : Shared()
                state.unbound.remove(run)
                return (values, captured)
            }
        }

        /// The frames of the innermost run in progress in the current task that did not bind
        /// them, if it began after `run`, the innermost run of the task's bound frames (one bound
        /// inside it wins). A task's runs in progress are nested: the latest begun is innermost,
        /// and it began after the bindings the task inherited.
        func unboundFrames(after run: Run?) -> Frames? {
            state.withLock { state -> Frames? in
                guard !state.unbound.isEmpty else { return nil }
                let task = CurrentTask.address
                guard let entry = state.unbound.last(in: task) else { return nil }
                return entry.run > (run ?? -1) ? entry.frames : nil
            }
        }

        /// Keeps `failure` for `run` to throw, if `run` is in progress; `false` when it has
        /// ended (the failure is then no run's: it is reported to the test scope instead).
        func capture(_ failure: CapturedWrapperFailure, for run: Run) -> Bool {
            state.withLock { state in
                guard state.running.isRunning(run) else { return false }
                if state.captured[run] == nil {
                    state.captured[run] = failure
                    Self.capturedCount.increment()
                }
                return true
            }
        }

        /// The failure captured for `run` so far, taken out (released by the caller, after
        /// the unlock).
        func takeCaptured(of run: Run) -> CapturedWrapperFailure? {
            // A failure captured in this task (or one it awaited) was counted before this load.
            guard !Self.capturedCount.isZero else { return nil }
            return state.withLock { state in
                guard !state.captured.isEmpty, let failure = state.captured.removeValue(forKey: run) else { return nil }
                Self.capturedCount.decrement()
                return failure
            }
        }

        /// Whether `run` is in progress.
        func isRunning(_ run: Run) -> Bool {
            state.withLock { $0.running.isRunning(run) }
        }

        /// The value `registration` made earlier in this resolve, if any.
        func value(madeBy registration: Registration, builtBy injector: DependencyInjector) -> (any Sendable)? {
            state.withLock { $0.values.value(madeBy: registration, builtBy: injector) }
        }

        /// What a request of `registration`'s value, built by `injector`, finds in this resolve:
        /// the value shared already, the creation of it another task runs, or (claimed now) one
        /// for this task to run, which the caller ends with `endCreation` before it finishes it;
        /// `nil` once the resolve has ended (a task that outlived it resolves as a resolve of its own).
        func claim(_ registration: Registration, builtBy injector: DependencyInjector) -> Claim? {
            state.withLock { state in
                guard state.inProgress > 0 else { return nil }
                if let value = state.values.value(madeBy: registration, builtBy: injector) { return .shared(value) }
                let key = Shared.Key(registration, injector)
                if let running = state.creations[key] { return .running(running) }
                let creation = AsyncSingletonCreation(of: registration)
                state.creations[key] = creation
                return .claimed(creation)
            }
        }

        /// A run in progress that did not bind its frames, with its task (`CurrentTask.address`).
        struct UnboundRun {
            let run: Run
            let task: UInt
            /// The run's node (its frames' innermost), unretained: the run holds it until it
            /// ends, and its end takes this entry out first, under the lock where it is read.
            /// Retained, it cost each such run a retain and a release, and made a cycle (the
            /// node holds this resolve) that only the run's end broke.
            fileprivate let node: Unmanaged<Node>

            var frames: Frames { Frames(innermost: node.takeUnretainedValue()) }
        }

        /// The runs in progress that did not bind their frames, in the order they began: the
        /// first in place, the rest in an array. A task's transients asked for through a run's
        /// resolver run one after another, so most resolves never hold two at once (an array
        /// alone was made for each resolve that had one).
        struct UnboundRuns {
            /// The earliest; `nil` only when `later` is empty too.
            private var first: UnboundRun?
            private var later: [UnboundRun] = []

            var isEmpty: Bool { first == nil }

            /// Adds `entry`, begun after every run held.
            mutating func append(_ entry: UnboundRun) {
                if first == nil {
                    first = entry
                } else {
                    later.append(entry)
                }
            }

            /// Takes out the entry of `run`, if it is held.
            mutating func remove(_ run: Run) {
                guard let earliest = first else { return }  // most resolves: none held
                if later.isEmpty {  // most of the rest: one held
                    if earliest.run == run { first = nil }
                    return
                }
                if let index = later.lastIndex(where: { $0.run == run }) {
                    later.remove(at: index)
                } else if earliest.run == run {
                    // The earliest of the rest moves up, so that the order stays the order they began.
                    first = later.removeFirst()
                }
            }

            /// The latest entry of `task`, if any.
            func last(in task: UInt) -> UnboundRun? {
                if let entry = later.last(where: { $0.task == task }) { return entry }
                return first?.task == task ? first : nil
            }
        }

        /// The runs of a resolve begun so far, and which of them are in progress: a word of bits
        /// for the first 64, which most resolves never pass (not an array made for each resolve).
        struct Runs {
            /// How many runs have begun; the outermost, 0, has, when the resolve is made.
            private var count = 1
            /// The runs among the first 64 that have ended, one bit each.
            private var ended: UInt64 = 0
            /// Whether each run from the 65th on is in progress.
            private var later: [Bool] = []

            /// Begins the next run, and returns its number.
            mutating func begin() -> Run {
                let run = count
                count += 1
                if run >= UInt64.bitWidth { later.append(true) }
                return run
            }

            /// Ends `run`, which has begun.
            mutating func end(_ run: Run) {
                if run < UInt64.bitWidth {
                    ended |= 1 << UInt64(run)
                } else {
                    later[run - UInt64.bitWidth] = false
                }
            }

            /// Whether `run`, which has begun, is in progress.
            func isRunning(_ run: Run) -> Bool {
                run < UInt64.bitWidth ? ended & (1 << UInt64(run)) == 0 : later[run - UInt64.bitWidth]
            }
        }

        /// What `claim` finds.
        enum Claim {
            case shared(any Sendable)
            case running(AsyncSingletonCreation)
            case claimed(AsyncSingletonCreation)
        }

        /// Forgets `creation` of `registration`'s value, built by `injector`, which has ended: a
        /// later request finds its value shared, or (it failed) claims a creation of its own.
        func endCreation(
            _ creation: AsyncSingletonCreation, of registration: Registration, builtBy injector: DependencyInjector
        ) {
            let key = Shared.Key(registration, injector)
            state.update { state in state.creations[key] === creation ? state.creations.removeValue(forKey: key) : nil }
        }

        /// Shares `value` with the rest of the resolve as what `registration` makes; not once
        /// the resolve has ended.
        func share(_ value: any Sendable, madeBy registration: Registration, builtBy injector: DependencyInjector) {
            state.update { state -> Shared.Entry? in
                guard state.inProgress > 0 else { return nil }
                return state.values.share(value, madeBy: registration, builtBy: injector)
            }
        }

        /// Stops sharing `registration`'s value (its completion is done).
        func stopSharing(_ registration: Registration, builtBy injector: DependencyInjector) {
            state.update { $0.values.stopSharing(registration, builtBy: injector) }
        }
    }

    /// One level of `Frames`. Immutable, so tasks share it freely.
    fileprivate final class Node: Sendable {
        /// How deep a chain is answered by walking it; deeper nodes carry `registrations`.
        static let walkedDepth = 32

        let frame: Frame
        /// The number of levels up to and including this one.
        let depth: Int
        /// The registrations of this level and those above it, past `walkedDepth`.
        let registrations: RegistrationSet?
        /// Of the class's own type, so a chain is released in a loop, not by a recursion that
        /// would overflow the stack (swiftlang/swift#41459; 100,000 nodes on a 512 KB thread).
        let parent: Node?

        init(_ frame: Frame, parent: Node?, depth: Int, registrations: RegistrationSet?) {
            self.frame = frame
            self.depth = depth
            self.registrations = registrations
            self.parent = parent
        }
    }

    /// A persistent set of registrations: a digital search tree on a hash of their lineages
    /// (`Registration.lineage`: a version modified in place since its run began is the same
    /// registration, whose resolve is a cycle, not a wait for its own creation). Inserting copies
    /// the path to the new node (about log₂ n nodes) and shares the rest. Identities are safe
    /// to hold: the frames it was built from keep the registrations (and their lineages' first
    /// versions) alive.
    fileprivate final class RegistrationSet: Sendable {
        let element: ObjectIdentifier
        /// The subtrees for the next bit of the hash: 0 and 1.
        let zero: RegistrationSet?
        let one: RegistrationSet?

        private init(_ element: ObjectIdentifier, zero: RegistrationSet?, one: RegistrationSet?) {
            self.element = element
            self.zero = zero
            self.one = one
        }

        func contains(_ registration: Registration) -> Bool {
            let element = registration.lineage
            var bits = Self.hash(element)
            var node = self
            while node.element != element {
                guard let next = bits & 1 == 0 ? node.zero : node.one else { return false }
                node = next
                bits >>= 1
            }
            return true
        }

        /// `set` with `registration` added; `nil` is the empty set.
        static func inserting(_ registration: Registration, into set: RegistrationSet?) -> RegistrationSet {
            let element = registration.lineage
            return insert(element, bits: hash(element), into: set)
        }

        /// `node` with `element` added, down the path that `bits` spell (at most 64 levels).
        private static func insert(_ element: ObjectIdentifier, bits: UInt64, into node: RegistrationSet?)
            -> RegistrationSet
        {
            guard let node else { return RegistrationSet(element, zero: nil, one: nil) }
            if node.element == element { return node }
            return bits & 1 == 0
                ? RegistrationSet(node.element, zero: insert(element, bits: bits >> 1, into: node.zero), one: node.one)
                : RegistrationSet(node.element, zero: node.zero, one: insert(element, bits: bits >> 1, into: node.one))
        }

        /// A bijective mix of the identity's bits (SplitMix64's finaliser), since addresses
        /// share their low and high bits; no path is longer than 64.
        private static func hash(_ element: ObjectIdentifier) -> UInt64 {
            var bits = UInt64(UInt(bitPattern: element))
            bits = (bits ^ (bits >> 30)) &* 0xBF58_476D_1CE4_E5B9
            bits = (bits ^ (bits >> 27)) &* 0x94D0_49BB_1331_11EB
            return bits ^ (bits >> 31)
        }
    }
}
