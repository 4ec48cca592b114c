/// The resolutions in progress in the current task and the tasks it is working for.
///
/// An async chain hops threads, so a per-thread stack (the sync face's) would lose it; a
/// task-local follows it across `await`s, into child tasks, and into the task that creates a
/// singleton (which copies its first requester's task-locals).
enum AsyncResolutionPath {
    /// One resolution in progress.
    struct Frame: Sendable {
        let registration: Registration
        /// The shared creation this frame runs, for a singleton or weak registration; `nil`
        /// once it has ended. Weak: a task that the factory starts copies these frames, and
        /// may outlive the run; the creation keeps the value it made, which that task must
        /// not keep alive (a `.weak` value, a singleton dropped by `reset`).
        weak let creation: AsyncCreation?
    }

    @TaskLocal static var frames = Frames()

    /// The keys being resolved in this task, outermost first.
    static var keys: [DependencyKey] { frames.keys }

    /// Throws `circularDependency` when `registration`'s factory is already running in `frames`.
    static func checkNotResolving(_ registration: Registration, in frames: Frames) throws(InjectionError) {
        if frames.contains(registration) {
            throw .circularDependency(path: frames.keys + [registration.key])
        }
    }
}

extension AsyncResolutionPath {
    /// The resolutions in progress as a persistent list, each level a node that shares the
    /// levels it works for (an array copied at each level cost 300 MB for 5,000 levels). Each
    /// level checks for a cycle by walking the nodes near the top; deeper, to keep the time
    /// linear, each node extends a persistent set of the chain's registrations.
    struct Frames: Sendable {
        /// The innermost level, or `nil` when nothing is being resolved.
        private let innermost: Node?
        /// What the factories of this top-level resolve share (see `sharing()`).
        let shared: SharedValues?

        init() {
            innermost = nil
            shared = nil
        }

        private init(innermost: Node?, shared: SharedValues?) {
            self.innermost = innermost
            self.shared = shared
        }

        /// These frames, with the values of one top-level resolve to share: the outermost
        /// factory's run makes them, every request inside it reaches them.
        func sharing() -> Frames {
            shared == nil ? Frames(innermost: innermost, shared: SharedValues()) : self
        }

        /// These frames with `frame` inside the innermost. These frames are not copied.
        func appending(_ frame: Frame) -> Frames {
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
                registrations = RegistrationSet.inserting(frame.registration, into: above)
            }
            return Frames(
                innermost: Node(frame, parent: innermost, depth: depth, registrations: registrations), shared: shared)
        }

        /// How many resolutions are in progress.
        var count: Int { innermost?.depth ?? 0 }

        /// The keys being resolved, outermost first.
        var keys: [DependencyKey] {
            var keys: [DependencyKey] = []
            keys.reserveCapacity(count)
            walk { frame in
                keys.append(frame.registration.key)
                return true
            }
            keys.reverse()
            return keys
        }

        /// Whether `registration`'s factory is running in one of these frames.
        func contains(_ registration: Registration) -> Bool {
            if let registrations = innermost?.registrations { return registrations.contains(registration) }
            var found = false
            walk { frame in
                found = frame.registration === registration
                return !found
            }
            return found
        }

        /// The key of the innermost resolution in progress, if any.
        var innermostKey: DependencyKey? { innermost?.frame.registration.key }

        /// The creation of the innermost frame that runs one, and the keys of the frames inside
        /// it (outermost first); `nil` when no frame runs a creation.
        var innermostCreation: (creation: AsyncCreation, keysInside: [DependencyKey])? {
            var creation: AsyncCreation?
            var inside: [DependencyKey] = []
            walk { frame in
                creation = frame.creation
                if creation == nil { inside.append(frame.registration.key) }
                return creation == nil
            }
            return creation.map { ($0, inside.reversed()) }
        }

        /// The creations these frames run.
        var creations: Set<ObjectIdentifier> {
            var creations: Set<ObjectIdentifier> = []
            walk { frame in
                if let creation = frame.creation { creations.insert(ObjectIdentifier(creation)) }
                return true
            }
            return creations
        }

        /// Calls `body` with each frame, innermost first, while it returns `true`.
        fileprivate func walk(_ body: (Frame) -> Bool) {
            var node = innermost
            while let current = node, body(current.frame) { node = current.parent }
        }
    }

    /// The values made so far in one top-level async resolve that its later requests share
    /// (as `ResolutionContext` keeps them for a thread): `.graph` values, and one whose
    /// completion is running. Its tasks may run factories at once, hence the lock.
    final class SharedValues: Sendable {
        private let values = Locked<[ObjectIdentifier: any Sendable]>([:])

        /// The value `registration` made earlier in this resolve, if any.
        func value(madeBy registration: Registration) -> (any Sendable)? {
            values.withLock { $0[ObjectIdentifier(registration)] }
        }

        /// Shares `value` with the rest of the resolve as what `registration` makes.
        func share(_ value: any Sendable, madeBy registration: Registration) {
            values.update { $0.updateValue(value, forKey: ObjectIdentifier(registration)) }
        }

        /// Stops sharing `registration`'s value (its completion is done).
        func stopSharing(_ registration: Registration) {
            values.update { $0.removeValue(forKey: ObjectIdentifier(registration)) }
        }
    }

    /// One level of `Frames`. Immutable, so tasks share it freely.
    private final class Node: Sendable {
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

    /// A persistent set of registrations: a digital search tree on a hash of their identities.
    /// Inserting copies the path to the new node (about log₂ n nodes) and shares the rest.
    /// Identities are safe to hold: the frames it was built from keep the registrations alive.
    private final class RegistrationSet: Sendable {
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
            let element = ObjectIdentifier(registration)
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
            let element = ObjectIdentifier(registration)
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
