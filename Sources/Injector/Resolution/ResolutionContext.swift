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
    // `frames` is read and written only by the thread that owns this context, one complete
    // access at a time (an append, a removal, a scan), so accesses never overlap and the
    // run-time exclusivity checks a class's stored `var` gets by default (a third of the
    // bookkeeping of every factory run) can only cost, never catch anything.
    // `waitingFor` and `waitingPath` are read and written only under the lock of
    // `SingletonCreation.shared`, which other threads take to look for a cycle between waiters.
    @exclusivity(unchecked) private(set) var frames: [Registration] = []
    // Diagnostics, owned by this thread like `frames`: factories run so far (to tell a cache
    // hit from a miss) and whether an observer is being called (so its own resolves are quiet).
    var factoryRuns = 0
    var isNotifyingObserver = false
    var waitingFor: SingletonCreation.Key?
    var waitingPath: [DependencyKey] = []
    /// The `install` running on this thread, if any (read and written by this thread only).
    var installation: Installation?

    /// The keys being resolved, outermost first.
    var path: [DependencyKey] { frames.map(\.key) }

    func isResolving(_ registration: Registration) -> Bool {
        frames.contains { $0 === registration }
    }

    /// Runs `body` with `registration` on top of the stack.
    func withFrame<Result>(_ registration: Registration, _ body: () throws -> Result) rethrows -> Result {
        frames.append(registration)
        defer { frames.removeLast() }
        return try body()
    }

    /// This thread's context.
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
