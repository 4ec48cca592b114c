import Foundation
import Injector
import Synchronization

/// Replacing a key that threads are reading (issue 40): the write takes out the old value and
/// returns, leaving its release to the readers' leaving, instead of waiting for them. With
/// more busy readers than cores, waiting cost a scheduling delay per reader (0.5-1 s with 32
/// readers on 2 cores). Each batch times one write, so the max column is the slowest write.
func writesUnderReaders() -> Scenario {
    let alone = "replace a published key, no reader"
    guard #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) else {
        return Scenario(name: "write under readers", cases: [])  // every resolve locks there
    }
    return Scenario(
        name: "write under readers",
        cases: [
            .measured(alone, clock: .wall, iterations: 1, setUp: { ReadersOfOneKey(threads: 0) }) { $0.replace() },
            .measured(
                "replace it, 8 threads reading it", baseline: alone, target: Target(nanoseconds: 10_000_000),
                clock: .wall, iterations: 1, setUp: { ReadersOfOneKey(threads: 8) }
            ) { $0.replace() },
            .measured(
                "replace it, 32 threads reading it", baseline: alone, target: Target(nanoseconds: 10_000_000),
                clock: .wall, iterations: 1, setUp: { ReadersOfOneKey(threads: 32) }
            ) { $0.replace() },
        ]
    )
}

/// An injector whose `Logger` instance `threads` threads resolve in a loop, from when it is
/// made until it is released. The threads hold the injector and the flag, not this object,
/// whose release stops them.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
final class ReadersOfOneKey: Sendable {
    private final class Stop: Sendable {
        let isRaised = Atomic<Bool>(false)
    }

    private let injector = DependencyInjector()
    private let stop = Stop()
    private let running = DispatchGroup()

    init(threads: Int) {
        injector.register(Logger())
        let (injector, stop, running) = (injector, stop, running)
        let reading = DispatchSemaphore(value: 0)
        for _ in 0..<threads {
            running.enter()
            Thread {
                _ = try? injector.resolve(Logger.self)
                reading.signal()
                while !stop.isRaised.load(ordering: .relaxed) { blackHole(try? injector.resolve(Logger.self)) }
                running.leave()
            }.start()
        }
        for _ in 0..<threads { reading.wait() }
    }

    /// Replaces the key the threads read.
    func replace() {
        injector.register(Logger())
    }

    deinit {
        stop.isRaised.store(true, ordering: .relaxed)
        running.wait()
    }
}
