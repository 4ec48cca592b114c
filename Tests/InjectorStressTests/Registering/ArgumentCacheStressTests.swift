import Foundation
import Injector
import TestSupport
import Testing

/// A bounded argument cache (`register(_:caching: .strong(limit:))`) under a race of threads
/// that use more tuples than it keeps: what a resolve is handed is never torn down first.
@Suite struct ArgumentCacheStressTests {
    /// A value that knows whether its teardown has run.
    final class Connection: @unchecked Sendable {
        // `isClosed` is guarded by `lock`.
        private let lock = NSLock()
        private var closed = false

        var isClosed: Bool { lock.withLock { closed } }
        func close() { lock.withLock { closed = true } }
    }

    /// The value each thread's creation is handing out: the one its factory made last.
    final class HandOuts: @unchecked Sendable {
        // `byThread` is guarded by `lock`.
        private let lock = NSLock()
        private var byThread: [ObjectIdentifier: Connection] = [:]

        var mine: Connection? { lock.withLock { byThread[ObjectIdentifier(Thread.current)] } }
        func set(_ connection: Connection?) {
            lock.withLock { byThread[ObjectIdentifier(Thread.current)] = connection }
        }
    }

    /// The race: 4 threads over 6 tuples with a bound of 2. A creation keeps its value,
    /// then tears down what the bound let go before it returns the value. That teardown runs
    /// on the creating thread, between the two: it checks there, exactly, that the value the
    /// thread is handing out is still whole (a check after the resolve returns could not tell
    /// a value torn down before its hand-out from one the bound let go just after).
    @Test func aBoundNeverTearsDownAValueACreationIsStillHandingOut() throws {
        let handOuts = HandOuts()
        let tornDownWhileHandedOut = Counter()
        let teardowns = Counter()
        let injector = DependencyInjector()
        injector.register(
            Connection.self, caching: .strong(limit: 2),
            teardown: { connection in
                connection.close()
                teardowns.increment()
                // Lets the other threads use other tuples while this creation hands out its value.
                for _ in 0..<4 { sched_yield() }
                if handOuts.mine?.isClosed == true { tornDownWhileHandedOut.increment() }
            }
        ) { (_, _: Int) in
            let connection = Connection()
            handOuts.set(connection)
            return connection
        }
        let failures = Counter()
        runOnThreads(4) { thread in
            for round in 0..<5_000 {
                do {
                    _ = try injector.resolve(Connection.self, arguments: (round * 5 + thread) % 6)
                } catch {
                    failures.increment()
                }
                handOuts.set(nil)
            }
        }
        try injector.close()
        #expect(failures.value == 0)
        #expect(teardowns.value > 1_000)  // the bound let values go all along: the race ran
        #expect(tornDownWhileHandedOut.value == 0)
    }
}
