import Synchronization

/// The hazard records: one per thread that has read a published table, each naming the table
/// that thread is reading (0: none). Records live as long as the process and are reused by
/// later threads, so a writer can walk the list without a lock while threads come and go.
///
/// A record is 128 bytes of its own (Apple silicon's line pair), so that two readers never
/// write to one cache line: the hazard (`Atomic<UInt>`) at 0, whether a thread holds the
/// record (`Atomic<UInt>`, 1 or 0) at 8, the next record's address (set before the record is
/// pushed, never changed) at 16.
@usableFromInline
enum Hazards {
    /// A reader's announcement seen by a writer: its record's address, and the word it held
    /// (a table's address and the announcement's tag).
    struct Announcement: Sendable {
        let record: UInt
        let word: UInt
    }

    /// Withdraws the announcement in `record`, which a `HazardGuard` handed over.
    @inlinable
    static func withdraw(_ record: UnsafeMutableRawPointer) {
        if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) { clear(untagged(record)) }
    }

    /// `record` tagged in its lowest bit when `isTagged` (a record is 8-byte aligned): a
    /// `ProtectedSlot`'s mark of an observed table (see `ProtectedSlot.hazard`).
    @inlinable
    static func tagged(_ record: UnsafeMutableRawPointer, if isTagged: Bool) -> UnsafeMutableRawPointer {
        record + (isTagged ? 1 : 0)
    }

    /// Whether `record` carries the tag (see `tagged(_:if:)`).
    @inlinable
    static func isTagged(_ record: UnsafeMutableRawPointer) -> Bool {
        UInt(bitPattern: record) & 1 != 0
    }

    /// `record` without its tag, if any (see `tagged(_:if:)`).
    @inlinable
    static func untagged(_ record: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer {
        record - Int(UInt(bitPattern: record) & 1)
    }

    /// Withdraws the announcement in `record` (a release store, so that a writer that reads
    /// the cleared hazard sees every read of the object before it).
    ///
    /// A call the optimiser cannot see into, so that it may release anything as far as the
    /// optimiser knows: the retain of a value copied out of the object stays before it. An
    /// atomic store alone is no such barrier: the retain sank below it (seen in the release
    /// build's code), after which the object, and the value with it, could be freed first.
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @usableFromInline
    @inline(never) @_optimize(none)
    static func clear(_ record: UnsafeMutableRawPointer) {
        record.assumingMemoryBound(to: Atomic<UInt>.self).pointee.store(0, ordering: .releasing)
    }
}

@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
extension Hazards {
    private static let head = Atomic<UInt>(0)
    private static let recordSize = 128

    /// Announces, in this thread's hazard record, the object that `word` (an `Atomic<UInt>`)
    /// publishes, and returns the guard of the announcement once the word is seen to still
    /// hold the object after it: from then on, a writer that replaces the object sees the
    /// announcement before it frees it (`waitUntilUnread`). `nil`, with nothing announced,
    /// while the word holds none (0), or when it changed meanwhile. (A raw word: `Synchronization` is not part of the
    /// library's interface, which inlinable callers see.)
    @inline(__always)
    static func announce(_ word: UnsafeMutableRawPointer) -> HazardGuard? {
        let word = word.assumingMemoryBound(to: Atomic<UInt>.self)
        let published = word.pointee.load(ordering: .acquiring)
        guard published != 0 else { return nil }
        let hazard = hazard()
        // A tag in the low bits (objects are 16-byte aligned): a writer that waits for this
        // announcement to end sees it end even when the reader announces the same table again.
        let count = UnsafeMutableRawPointer(hazard) + 24
        let tag = count.load(as: UInt.self) &+ 1
        count.storeBytes(of: tag, as: UInt.self)
        hazard.pointee.store(published | (tag & 15), ordering: .sequentiallyConsistent)
        // Replaced meanwhile: no retry here; the caller takes its locked path (a table) or
        // announces again (an assigned `@LazyInject` value), which is rare and always right.
        guard word.pointee.load(ordering: .sequentiallyConsistent) == published else {
            hazard.pointee.store(0, ordering: .releasing)
            return nil
        }
        return HazardGuard(address: published, record: UnsafeMutableRawPointer(hazard))
    }

    /// The address this thread announces in its `record` (maybe tagged; 0: none), without
    /// the announcement's tag.
    static func announcedAddress(in record: UnsafeMutableRawPointer) -> UInt {
        untagged(record).assumingMemoryBound(to: Atomic<UInt>.self).pointee.load(ordering: .relaxed) & ~15
    }

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
        (record + 24).storeBytes(of: 0 as UInt, as: UInt.self)  // the announcement count
        var first = head.load(ordering: .relaxed)
        while true {
            (record + 16).storeBytes(of: UnsafeMutableRawPointer(bitPattern: first), as: UnsafeMutableRawPointer?.self)
            let (exchanged, current) = head.compareExchange(
                expected: first, desired: UInt(bitPattern: record), ordering: .sequentiallyConsistent)
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

    /// The announcements of `table` standing now: each record that names it, with the word
    /// it holds (whose tag tells a later announcement of the same table apart). The caller
    /// removed something from `table`, or withdrew it, earlier (a sequentially consistent
    /// store): a reader that announces the table after this looks finds it removed, so only
    /// these can be reading it (see `DeferredReleases`).
    static func announcements(of table: UInt) -> [Announcement] {
        var found: [Announcement] = []
        var current = UnsafeMutableRawPointer(bitPattern: head.load(ordering: .sequentiallyConsistent))
        while let record = current {
            let seen = record.assumingMemoryBound(to: Atomic<UInt>.self).pointee.load(ordering: .sequentiallyConsistent)
            if seen & ~15 == table { found.append(Announcement(record: UInt(bitPattern: record), word: seen)) }
            current = next(record)
        }
        return found
    }

    /// Whether each of `announcements` has been withdrawn: its record holds another word.
    static func haveEnded(_ announcements: [Announcement]) -> Bool {
        announcements.allSatisfy { announcement in
            let record = UnsafeMutableRawPointer(bitPattern: announcement.record)?.assumingMemoryBound(
                to: Atomic<UInt>.self)
            return record?.pointee.load(ordering: .sequentiallyConsistent) != announcement.word
        }
    }

    private static func isRead(_ table: UInt) -> Bool {
        // Sequentially consistent, as the reader's announcement: a record pushed just before
        // it is seen here (acquire alone would not promise that in the language's model).
        var current = UnsafeMutableRawPointer(bitPattern: head.load(ordering: .sequentiallyConsistent))
        while let record = current {
            if record.assumingMemoryBound(to: Atomic<UInt>.self).pointee.load(ordering: .sequentiallyConsistent) & ~15
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
    fileprivate static let key = ThreadKey(destructor: giveBackRecord)
}

private func giveBackRecord(_ pointer: UnsafeMutableRawPointer?) {
    guard let pointer, #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) else { return }
    Hazards.giveBack(pointer)
}

/// An announcement in this thread's hazard record (`Hazards.announce`): while it stands, the
/// object at `address` is not freed. Withdrawn once: by the reader that takes the record
/// (`handOver()`), after it has retained what it copied out, or when the guard is dropped.
/// The one guard of both published objects: an injector's table of ready values, and a
/// `@LazyInject` property's assigned value.
@usableFromInline
@frozen
struct HazardGuard: ~Copyable {
    /// The address of the announced object (with the tags its word carries, if any).
    @usableFromInline let address: UInt
    /// This thread's hazard record.
    @usableFromInline let record: UnsafeMutableRawPointer

    @usableFromInline
    init(address: UInt, record: UnsafeMutableRawPointer) {
        self.address = address
        self.record = record
    }

    /// The record, for a reader that withdraws the announcement itself later
    /// (`Hazards.withdraw(_:)`): a plain word, cheaper to hand down a chain of calls.
    @inlinable
    consuming func handOver() -> UnsafeMutableRawPointer {
        let record = self.record
        discard self
        return record
    }

    deinit {
        if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) { Hazards.clear(record) }
    }
}
