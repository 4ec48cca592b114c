import Synchronization

/// The hazard records: one per thread that has read a published table, each naming the table
/// that thread is reading (0: none). Records live as long as the process and are reused by
/// later threads, so a writer can walk the list without a lock while threads come and go.
///
/// A record is 128 bytes of its own (Apple silicon's line pair), so that two readers never
/// write to one cache line: the hazard (`Atomic<UInt>`) at 0, whether a thread holds the
/// record (`Atomic<UInt>`, 1 or 0) at 8, the next record's address (set before the record is
/// pushed, never changed) at 16.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
enum Hazards {
    private static let head = Atomic<UInt>(0)
    private static let recordSize = 128

    /// This thread's hazard, from the record it claimed on its first read.
    @inline(__always)
    static func hazard() -> UnsafeMutablePointer<Atomic<UInt>> {
        if let record = key.value { return record.assumingMemoryBound(to: Atomic<UInt>.self) }
        return claim()
    }

    private static func isTaken(_ record: UnsafeMutableRawPointer) -> UnsafeMutablePointer<Atomic<UInt>> {
        (record + 8).assumingMemoryBound(to: Atomic<UInt>.self)
    }

    private static func next(_ record: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer? {
        (record + 16).load(as: UnsafeMutableRawPointer?.self)
    }

    @inline(never)
    private static func claim() -> UnsafeMutablePointer<Atomic<UInt>> {
        let record = reusedRecord() ?? newRecord()
        key.set(record)
        return record.assumingMemoryBound(to: Atomic<UInt>.self)
    }

    /// A record that a finished thread gave back, taken.
    private static func reusedRecord() -> UnsafeMutableRawPointer? {
        var current = UnsafeMutableRawPointer(bitPattern: head.load(ordering: .acquiring))
        while let record = current {
            if isTaken(record).pointee.compareExchange(expected: 0, desired: 1, ordering: .acquiring).exchanged {
                return record
            }
            current = next(record)
        }
        return nil
    }

    /// A new record, pushed onto the list.
    private static func newRecord() -> UnsafeMutableRawPointer {
        let record = UnsafeMutableRawPointer.allocate(byteCount: recordSize, alignment: recordSize)
        record.bindMemory(to: Atomic<UInt>.self, capacity: 2).initialize(to: Atomic(0))
        isTaken(record).initialize(to: Atomic(1))
        var first = head.load(ordering: .relaxed)
        while true {
            (record + 16).storeBytes(of: UnsafeMutableRawPointer(bitPattern: first), as: UnsafeMutableRawPointer?.self)
            let (exchanged, current) = head.compareExchange(
                expected: first, desired: UInt(bitPattern: record), ordering: .acquiringAndReleasing)
            if exchanged { return record }
            first = current
        }
    }

    /// Returns once no thread announces `table`. The caller withdrew `table` earlier (a
    /// sequentially consistent exchange); a reader that announces it later finds it withdrawn
    /// and does not read it, and one that announced it earlier is seen here until it is done.
    static func waitUntilUnread(_ table: UInt) {
        while isRead(table) { yieldThread() }
    }

    private static func isRead(_ table: UInt) -> Bool {
        // Sequentially consistent, as the reader's announcement: a record pushed just before
        // it is seen here (acquire alone would not promise that in the language's model).
        var current = UnsafeMutableRawPointer(bitPattern: head.load(ordering: .sequentiallyConsistent))
        while let record = current {
            if record.assumingMemoryBound(to: Atomic<UInt>.self).pointee.load(ordering: .sequentiallyConsistent)
                == table
            {
                return true
            }
            current = next(record)
        }
        return false
    }

    /// Called when a thread ends: clears its hazard and gives its record back.
    fileprivate static func giveBack(_ record: UnsafeMutableRawPointer) {
        record.assumingMemoryBound(to: Atomic<UInt>.self).pointee.store(0, ordering: .releasing)
        isTaken(record).pointee.store(0, ordering: .releasing)
    }

    /// The thread-specific slot holding a thread's record; its destructor gives the record back.
    private static let key = ThreadKey(destructor: giveBackRecord)
}

private func giveBackRecord(_ pointer: UnsafeMutableRawPointer?) {
    guard let pointer, #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) else { return }
    Hazards.giveBack(pointer)
}
