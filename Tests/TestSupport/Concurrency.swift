import Foundation

// Helpers shared by the test targets.

/// A thread-safe counter, e.g. for "how many times did this factory run".
public final class Counter: @unchecked Sendable {
    // `count` is guarded by `lock`.
    private let lock = NSLock()
    private var count = 0

    /// A counter at zero.
    public init() {}

    /// The current count.
    public var value: Int { lock.withLock { count } }

    /// Adds one and returns the new count.
    @discardableResult
    public func increment() -> Int {
        lock.withLock {
            count += 1
            return count
        }
    }
}

/// Values appended from several threads.
public final class Collected<Value>: @unchecked Sendable {
    // `stored` is guarded by `lock`.
    private let lock = NSLock()
    private var stored: [Value] = []

    /// An empty collection.
    public init() {}

    /// Everything appended so far, in order.
    public var values: [Value] { lock.withLock { stored } }

    /// Appends `value`.
    public func append(_ value: Value) { lock.withLock { stored.append(value) } }
}

/// Runs `body` on `threads` new threads (8 MB stacks) that start together, and returns when
/// all are done.
public func runOnThreads(_ threads: Int, _ body: @escaping @Sendable (Int) -> Void) {
    let gate = DispatchSemaphore(value: 0)
    let done = DispatchGroup()
    for index in 0..<threads {
        done.enter()
        let thread = Thread {
            gate.wait()
            body(index)
            done.leave()
        }
        thread.stackSize = 8 << 20
        thread.start()
    }
    for _ in 0..<threads { gate.signal() }
    done.wait()
}

/// Runs `body` on a new thread (8 MB stack) and waits at most `seconds` for it: `true` when it
/// finished in time, so that a deadlock fails the test instead of hanging the run. An error
/// `body` throws is rethrown here.
///
/// A thread that does not finish is abandoned, still blocked: use an injector of the test's
/// own, so that nothing else waits for the locks it holds.
public func finishes(
    withinSeconds seconds: Int = 10,
    _ body: @escaping @Sendable () throws -> Void
) throws -> Bool {
    let done = DispatchSemaphore(value: 0)
    let failures = Collected<any Error>()
    let thread = Thread {
        do {
            try body()
        } catch {
            failures.append(error)
        }
        done.signal()
    }
    thread.stackSize = 8 << 20
    thread.start()
    guard done.wait(timeout: .now() + .seconds(seconds)) == .success else { return false }
    if let failure = failures.values.first { throw failure }
    return true
}

/// Runs `body` in a task of its own and waits at most `seconds` for it (on a thread of its
/// own, so that a deadlocked `body` holds none of the caller's): `true` when it finished in
/// time, so that a deadlock fails the test instead of hanging the run. A task that does not
/// finish is abandoned: use an injector of the test's own.
public func finishesAsync(
    withinSeconds seconds: Int = 10,
    _ body: @escaping @Sendable () async -> Void
) async -> Bool {
    let done = DispatchSemaphore(value: 0)
    Task.detached {
        await body()
        done.signal()
    }
    return await onOwnThread { done.wait(timeout: .now() + .seconds(seconds)) == .success }
}

/// Runs `body` on a new thread (8 MB stack) and returns what it returned, suspending the
/// caller meanwhile: a `body` that blocks holds none of Swift concurrency's threads.
public func onOwnThread<Result: Sendable>(_ body: @escaping @Sendable () -> Result) async -> Result {
    await withCheckedContinuation { continuation in
        let thread = Thread { continuation.resume(returning: body()) }
        thread.stackSize = 8 << 20
        thread.start()
    }
}

/// Runs `body` on a new thread whose stack holds `stackSize` bytes, and returns what it
/// returned once the thread is done.
///
/// 512 KB (`512 << 10`) is the stack of every secondary thread and dispatch worker on Apple
/// platforms, the smallest a resolve commonly runs on.
public func onThread<Result: Sendable>(stackSize: Int, _ body: @escaping @Sendable () -> Result) -> Result {
    let result = Collected<Result>()
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
        result.append(body())
        done.signal()
    }
    thread.stackSize = stackSize
    thread.start()
    done.wait()
    return result.values[0]
}

/// Whether this process runs under the thread sanitizer (`swift test --sanitize=thread`), whose
/// instrumentation makes every stack frame larger.
public let isThreadSanitized: Bool = {
    #if canImport(Darwin)
        let everywhere = UnsafeMutableRawPointer(bitPattern: -2)  // RTLD_DEFAULT
    #else
        let everywhere: UnsafeMutableRawPointer? = nil  // RTLD_DEFAULT
    #endif
    return dlsym(everywhere, "__tsan_init") != nil
}()
