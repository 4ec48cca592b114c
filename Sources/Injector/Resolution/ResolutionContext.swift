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
final class ResolutionContext: @unchecked Sendable {
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

    private init() {
        frames = .allocate(capacity: frameCapacity)
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
    func withFrame<Result>(_ registration: Registration, _ body: () throws -> Result) rethrows -> Result {
        if frameCount == frameCapacity {
            let larger = UnsafeMutablePointer<Unmanaged<Registration>>.allocate(capacity: frameCapacity * 2)
            larger.moveInitialize(from: frames, count: frameCount)
            frames.deallocate()
            frames = larger
            frameCapacity *= 2
        }
        (frames + frameCount).initialize(to: .passUnretained(registration))
        frameCount += 1
        defer { frameCount -= 1 }
        return try body()
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
