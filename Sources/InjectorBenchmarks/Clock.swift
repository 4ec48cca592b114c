#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// What a batch is timed with.
///
/// Other work shares the machine, so a single-threaded case is timed with the CPU time of
/// its own thread: time the thread spends descheduled does not count. A multi-threaded case
/// needs the wall clock, since its subject is throughput, waiting included.
enum Clock {
    /// `CLOCK_THREAD_CPUTIME_ID`: CPU time of the calling thread.
    case threadCPU
    /// `CLOCK_MONOTONIC`: elapsed time.
    case wall

    /// The current reading in nanoseconds (`clock_gettime` is available on every supported
    /// OS version, unlike `ContinuousClock`, which needs macOS 13).
    func now() -> UInt64 {
        var time = timespec()
        switch self {
        case .threadCPU: clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        case .wall: clock_gettime(CLOCK_MONOTONIC, &time)
        }
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }
}
