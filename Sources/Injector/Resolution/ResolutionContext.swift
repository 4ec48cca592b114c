#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The resolutions in progress on one thread, innermost last.
///
/// Factories are synchronous, so a chain of resolutions (`App → Checkout → PaymentService`)
/// runs on one thread from start to end; a per-thread stack gives every error its path and
/// finds cycles without a depth heuristic. It is touched only when a factory runs, never on
/// the cached-singleton path.
///
/// It also keeps a deep graph from overflowing the thread's stack: before a factory runs, the
/// address of a local is compared with the stack's lowest address (read once per thread), and
/// a thread with less than `stackReserve` left throws `resolutionTooDeep` instead.
final class ResolutionContext: @unchecked Sendable {
    /// The stack a thread must have left for a factory to start on it: 64 KB.
    ///
    /// Between two checks runs one level of a chain: the library's frames (measured on Linux
    /// x86-64, a transient's level takes 1 KB in a release build, 2.7 KB unoptimised and 3.5 KB
    /// under the thread sanitizer; a singleton's 1.3, 4.3 and 5.6 KB), then the user's factory
    /// with whatever it calls before it resolves the next dependency. A failure adds the
    /// error's path and its throw; the first one in a process also makes the runtime build
    /// the metadata of `[DependencyKey]`, which alone took 12 KB (the whole failure path, 15 KB
    /// at most). 64 KB covers all of that and leaves the factory itself some 40 KB, more than
    /// ordinary code needs, at an eighth of the smallest stack in common use (512 KB, that of
    /// secondary threads and dispatch workers on Apple platforms).
    static let stackReserve: UInt = 64 << 10

    // The frames are read and written only by the thread that owns this context, one complete
    // access at a time (a push, a pop, a scan), so accesses never overlap.
    // They live in a buffer of their own rather than an `Array`, whose every append pays a
    // uniqueness check and a call into the standard library, and whose `inout` accesses pay
    // run-time exclusivity checks: together a third of the bookkeeping of a factory run.
    // A frame does not retain its registration: it lives only inside `withFrame`, whose caller
    // holds the registration for that long. Retaining it would add two atomic operations to
    // every factory run.
    private var frames: UnsafeMutablePointer<Unmanaged<Registration>>
    private var frameCapacity = 16
    private var frameCount = 0
    // Diagnostics, owned by this thread like the frames: factories run so far (to tell a cache
    // hit from a miss) and whether an observer is being called (so its own resolves are quiet).
    var factoryRuns = 0
    var isNotifyingObserver = false
    // `waitingFor` and `waitingPath` are read and written only under the lock of
    // `SingletonCreation.shared`, which other threads take to look for a cycle between waiters.
    var waitingFor: SingletonCreation.Key?
    var waitingPath: [DependencyKey] = []
    // The owning thread's stack, read when the context is made (on that thread). When the
    // platform does not tell, `stackLow` is 0 and the check never fires: every address in use
    // lies far above `stackReserve`.
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
    var path: [DependencyKey] { running.map { $0.takeUnretainedValue().key } }

    /// The registration whose factory is running innermost, if any.
    var innermost: Registration? { running.last?.takeUnretainedValue() }

    /// Throws `circularDependency` when `registration`'s factory is already running on this
    /// thread: running it again would never end.
    func checkNotResolving(_ registration: Registration) throws(InjectionError) {
        let identity = Unmanaged.passUnretained(registration).toOpaque()
        if running.contains(where: { $0.toOpaque() == identity }) {
            throw .circularDependency(path: path + [registration.key])
        }
    }

    /// Runs `body` with `registration` on top of the stack.
    ///
    /// - Throws: ``InjectionError/resolutionTooDeep(path:stackSize:)`` without running `body`
    ///   when this thread has less than `stackReserve` of stack left; otherwise what `body`
    ///   throws.
    func withFrame<Result>(_ registration: Registration, _ body: () throws -> Result) throws -> Result {
        try enter(registration)
        defer { leave() }
        return try body()
    }

    /// Puts `registration` on top of the stack, if this thread has the stack to run its
    /// factory; `leave()` takes it off. What `withFrame` does, for a caller that runs the
    /// factory itself and so saves the closure's frame on every level of a chain.
    ///
    /// - Throws: ``InjectionError/resolutionTooDeep(path:stackSize:)`` when this thread has
    ///   less than `stackReserve` of stack left.
    ///
    /// Not inlined, so that its locals are gone from the thread's stack while the factory
    /// runs: every level of a deep chain would carry them.
    @inline(never)
    func enter(_ registration: Registration) throws(InjectionError) {
        // The check: one subtraction and one comparison. An address below `stackLow` (a stack
        // the platform did not report, e.g. a coroutine's) wraps around to a large distance,
        // so it passes.
        var marker: UInt8 = 0
        let address = withUnsafeMutablePointer(to: &marker) { UInt(bitPattern: $0) }
        if address &- stackLow < Self.stackReserve { throw tooDeep(registration) }
        if frameCount == frameCapacity { grow() }
        (frames + frameCount).initialize(to: .passUnretained(registration))
        frameCount += 1
    }

    /// Takes the innermost registration off the stack, after its factory has run.
    func leave() {
        frameCount -= 1
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
    static var current: ResolutionContext {
        if let pointer = pthread_getspecific(threadKey) {
            return Unmanaged<ResolutionContext>.fromOpaque(pointer).takeUnretainedValue()
        }
        let context = ResolutionContext()
        pthread_setspecific(threadKey, Unmanaged.passRetained(context).toOpaque())
        return context
    }

    /// The thread-specific slot; its destructor releases a thread's context when the thread ends.
    private static let threadKey: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, releaseContext)
        return key
    }()
}

#if canImport(Darwin)
    private func releaseContext(_ pointer: UnsafeMutableRawPointer) {
        Unmanaged<ResolutionContext>.fromOpaque(pointer).release()
    }
#else
    private func releaseContext(_ pointer: UnsafeMutableRawPointer?) {
        guard let pointer else { return }
        Unmanaged<ResolutionContext>.fromOpaque(pointer).release()
    }
#endif
