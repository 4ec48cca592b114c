import Foundation
import TestSupport
import Testing

@testable import Injector

/// A write never waits for readers (issue 40, item 1): it removes an entry in place and takes
/// a snapshot of the readers inside the table; what they may be reading is released once they
/// have left, by a later write or a background pass, and at once when no reader was inside.
@Suite struct StalledReaderTests {
    /// A reader stopped inside the published table (preempted, or stopped by a signal) while a
    /// write replaces the value it found: the write returns, the new value is read, and the
    /// old one is released only once the reader has left.
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func aWriteReturnsWhileAReaderIsStalledInsideTheTable() async throws {
        let ledger = Ledger()
        let injector = DependencyInjector()
        injector.register(Tracked(id: 1, ledger: ledger))
        let entered = DispatchSemaphore(value: 0)
        let leave = DispatchSemaphore(value: 0)
        let reader = Thread {
            // Announced in the table until dropped, as a resolve is while it copies a value out.
            let found = injector.ready.slot(for: ObjectIdentifier(Tracked.self), name: nil)
            entered.signal()
            leave.wait()
            _ = consume found
        }
        reader.start()
        entered.wait()

        let returned = try finishes { injector.register(Tracked(id: 2, ledger: ledger)) }

        #expect(returned, "the write waited for a reader that was stalled")
        #expect(try injector.resolve(Tracked.self).id == 2)
        #expect(ledger.died == 0, "released while a reader may still read it")
        leave.signal()
        #expect(eventually { ledger.died == 1 }, "never released after the reader left")
    }

    /// With no reader inside the table, the write itself releases what it replaced: "released
    /// when the write returns", as before.
    @Test func withNoReaderTheWriteReleasesWhatItReplacedBeforeReturning() throws {
        let ledger = Ledger()
        let injector = DependencyInjector()
        injector.register(Tracked(id: 1, ledger: ledger))
        _ = try injector.resolve(Tracked.self)

        injector.register(Tracked(id: 2, ledger: ledger))

        #expect(ledger.died == 1)
    }

    /// Many readers of one key on few cores, a writer replacing it: every write returns, every
    /// read is a value that was registered, and every replaced value is released once the
    /// readers are gone. (Run under the thread sanitizer in CI.)
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func writesUnderManyReadersReturnAndReleaseEverything() async throws {
        let ledger = Ledger()
        let injector = DependencyInjector()
        injector.register(Tracked(id: 0, ledger: ledger))
        let writes = 200
        let done = Flag()
        runOnThreads(9) { thread in
            guard thread == 0 else {
                while !done.isRaised {
                    let id = (try? injector.resolve(Tracked.self).id) ?? -1
                    #expect((0...writes).contains(id))
                }
                return
            }
            for id in 1...writes { injector.register(Tracked(id: id, ledger: ledger)) }
            done.raise()
        }
        #expect(try injector.resolve(Tracked.self).id == writes)
        #expect(eventually { ledger.died == writes }, "\(writes - ledger.died) replaced values never released")
    }

    /// The same through the actor face, whose writes change the one core's published table:
    /// tasks read while a task replaces the key.
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func actorFaceWritesUnderManyReadersReturnAndReleaseEverything() async throws {
        let ledger = Ledger()
        let injector = AsyncDependencyInjector()
        await injector.register(Tracked(id: 0, ledger: ledger))
        let writes = 200
        let done = Flag()
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    while !done.isRaised {
                        let id = (try? await injector.resolve(Tracked.self).id) ?? -1
                        #expect((0...writes).contains(id))
                        await Task.yield()  // a ready value's resolve need not suspend: let the writer run
                    }
                }
            }
            group.addTask {
                for id in 1...writes { await injector.register(Tracked(id: id, ledger: ledger)) }
                done.raise()
            }
        }
        #expect(try await injector.resolve(Tracked.self).id == writes)
        #expect(eventually { ledger.died == writes }, "\(writes - ledger.died) replaced values never released")
    }

}
