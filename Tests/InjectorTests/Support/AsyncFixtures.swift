import Foundation

@testable import Injector

// Helpers for the `Async*Tests` suites. Each test builds its own `AsyncDependencyInjector()`,
// so the suites run in parallel without touching `AsyncDependencyInjector.shared`.

/// A one-shot signal that tasks can await: after `open()`, every `wait()` returns.
///
/// Factories use it to keep a creation in flight until a test has arranged what it needs, in
/// place of sleeping and hoping.
final class AsyncGate: @unchecked Sendable {
    // `isOpen` and `waiters` are guarded by `lock`.
    private let lock = NSLock()
    private var isOpen = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    func open() {
        let waiting = lock.withLock {
            isOpen = true
            defer { waiters = [] }
            return waiters
        }
        for waiter in waiting { waiter.resume() }
    }

    /// Blocks the calling thread until `open()`; for a thread of the test's own, never one
    /// of Swift concurrency's.
    func waitBlocking() {
        let signal = DispatchSemaphore(value: 0)
        Task { @Sendable in
            await self.wait()
            signal.signal()
        }
        signal.wait()
    }

    func wait() async {
        await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
            let openAlready = lock.withLock {
                if !isOpen { waiters.append(waiter) }
                return isOpen
            }
            if openAlready { waiter.resume() }
        }
    }
}

/// The error `body` throws as an `InjectionError`, or `nil` if it throws none (or another one).
func injectionError<T>(_ body: () async throws -> T) async -> InjectionError? {
    do {
        _ = try await body()
        return nil
    } catch let error as InjectionError {
        return error
    } catch {
        return nil
    }
}

/// The simple type names along `error`'s path, when it is a cycle; `nil` otherwise.
func cycleNames(_ error: InjectionError?) -> [String]? {
    guard case .circularDependency(let path) = error else { return nil }
    return path.map { String(describing: $0.type) }
}

/// Runs `bodies` in tasks of their own and returns what they return, cancelling them if they
/// have not all returned within `seconds`: a wait that regresses into a hang then fails its
/// test with what the cancellation made of it, instead of stopping the whole run (a test's
/// time limit cannot end a wait that never suspends on cancellation).
func results<Result: Sendable>(
    within seconds: UInt64,
    of bodies: [@Sendable () async -> Result]
) async -> [Result] {
    let tasks = bodies.map { body in Task { await body() } }
    let watchdog = Task {
        try await Task.sleep(nanoseconds: seconds * 1_000_000_000)
        for task in tasks { task.cancel() }
    }
    defer { watchdog.cancel() }
    var results: [Result] = []
    for task in tasks { results.append(await task.value) }
    return results
}

/// The error `task` failed with, or `nil` when it returned a value.
func failure<Success>(of task: Task<Success, any Error>) async -> (any Error)? {
    if case .failure(let error) = await task.result { error } else { nil }
}

/// Whether `error` is `factoryFailed` for `key` with a `CancellationError` underneath.
func isCancellation(_ error: (any Error)?, of key: DependencyKey) -> Bool {
    guard case .factoryFailed(let failed, let path, let underlying) = error as? InjectionError else { return false }
    return failed == key && path.last == key && underlying is CancellationError
}

/// Waits (yielding, never sleeping) until `injector` has `count` resolves waiting for the
/// running creation of `type`. Throws `CancellationError` when the test's time limit cancels it.
func untilWaiting<T>(_ count: Int, for type: T.Type, in injector: AsyncDependencyInjector) async throws {
    while await injector.waitersForCreation(of: type) < count {
        try Task.checkCancellation()
        await Task.yield()
    }
}

/// Waits (yielding, never sleeping) until `count` installations into `injector` wait for
/// another one, or `seconds` pass: `false` then.
func untilInstallationsWait(_ count: Int, in injector: FaceInjector, seconds: Int = 10) async -> Bool {
    // `DispatchTime`, not `ContinuousClock`: the tests compile at the declared floors (macOS 10.15).
    let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(seconds) * 1_000_000_000
    while injector.core.installationsWaiting < count {
        if DispatchTime.now().uptimeNanoseconds > deadline || Task.isCancelled { return false }
        await Task.yield()
    }
    return true
}

extension FaceInjector {
    /// The core both faces resolve through.
    var core: DependencyInjector {
        switch base {
        case .sync(let injector): injector
        case .async(let injector): injector.core
        }
    }
}
