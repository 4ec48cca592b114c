import Synchronization

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// One injector's ready values, published for resolves that take no lock: a `ReadyTable`
/// behind an atomic pointer, replaced (never changed) by writers under the registry lock.
///
/// The registry stays the source of truth; the table is a cache of its ready slots. A write
/// that removes or replaces a ready value withdraws the table before it unlocks, so a table
/// never holds a value that a locked lookup would no longer find. Values added since (a
/// singleton created, an instance registered) are missing from it until a locked resolve
/// finds one of them and publishes a new table.
///
/// Reclamation is by hazard pointers (`Hazards`): a reader announces the table it reads in
/// its thread's own record; a writer frees a withdrawn table only once no record names it.
/// Readers never wait and write only their own record; a writer waits, after its unlock,
/// for the few readers that are inside the table at that instant (a dozen instructions each,
/// no user code, no lock). Chosen over epochs, which free late when one thread stops between
/// resolves, and over keeping old tables until the injector goes away, which would keep
/// unregistered values alive too.
///
/// Needs `Synchronization.Atomic` (macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2); before
/// those, nothing is published and every resolve takes the registry lock, as it did.
@usableFromInline
final class ReadyValues: @unchecked Sendable {
    // `@unchecked Sendable`: `cell` is an `Atomic<UInt>` (an unmanaged `ReadyTable` or 0),
    // touched only atomically; the other properties only under the owning injector's
    // registry lock.
    private let cell: UnsafeMutableRawPointer
    /// Tables withdrawn and not yet freed, with the next in `ReadyTable.nextRetired`.
    private var retired: Unmanaged<ReadyTable>?
    /// Whether the published table holds every ready value of the registry (always, where
    /// nothing is published: no locked resolve then tries to publish).
    private var isCurrent = true
    /// Locked finds of a ready value since the table stopped being current.
    private var missedReads = 0
    /// The size of the last table built: a rebuild waits for that many misses over 16.
    private var lastSize = 0
    /// Changes with every write that makes the table stale, so that a table built from the
    /// registry as it was before is not published (see `publish(_:in:)`).
    private var generation = 0
    /// Whether a resolve is building a table after its unlock: one at a time.
    private var isBuilding = false

    init() {
        // A line of its own: readers load it on every resolve, and a neighbour written by
        // other threads (a value's reference count, say) could make each load a cache miss.
        cell = .allocate(byteCount: 128, alignment: 128)
        if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
            cell.bindMemory(to: Atomic<UInt>.self, capacity: 1).initialize(to: Atomic(0))
        }
    }

    deinit {
        // The injector is going away, so no resolve of it is reading: free without waiting.
        if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
            if let published = UnsafeRawPointer(bitPattern: atomic.pointee.load(ordering: .acquiring)) {
                Unmanaged<ReadyTable>.fromOpaque(published).release()
            }
        }
        var table = retired
        while let current = table {
            table = current._withUnsafeGuaranteedRef { $0.nextRetired }
            current.release()
        }
        cell.deallocate()
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    private var atomic: UnsafeMutablePointer<Atomic<UInt>> {
        cell.assumingMemoryBound(to: Atomic<UInt>.self)
    }

    /// The ready slot for `type` under `name`, announced in this thread's hazard record so
    /// that its table stays alive until the `ProtectedSlot` is consumed; `nil` when the table
    /// has no such key, or there is no table. Takes no lock and writes only this thread's
    /// record.
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @usableFromInline
    func slot(for type: ObjectIdentifier, name: String?) -> ProtectedSlot? {
        let published = atomic.pointee.load(ordering: .acquiring)
        guard published != 0 else { return nil }
        // Hashed before the announcement, which then lasts only for the probe.
        let key = ReadyTable.Key(type, name)
        let hazard = Hazards.hazard()
        hazard.pointee.store(published, ordering: .sequentiallyConsistent)
        // Still published after the announcement: a writer that withdraws it from now on
        // sees the announcement before it frees it (see `Hazards.waitUntilUnread(_:)`).
        guard atomic.pointee.load(ordering: .sequentiallyConsistent) == published,
            let table = UnsafeRawPointer(bitPattern: published),
            let entry = Unmanaged<ReadyTable>.fromOpaque(table)._withUnsafeGuaranteedRef({
                $0.entry(for: key)
            }),
            let slot = entry.pointee.slot
        else {
            hazard.pointee.store(0, ordering: .releasing)
            return nil
        }
        return ProtectedSlot(
            typed: entry.pointee.typed, slot: slot.toOpaque(), transient: entry.pointee.transient?.toOpaque(),
            hazard: UnsafeMutableRawPointer(hazard))
    }

    /// Under the registry lock: a write removed or replaced a ready value, so the table stops
    /// being published; it is freed by `reclaim` after the unlock.
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    func withdraw() {
        isCurrent = false
        missedReads = 0
        generation &+= 1
        let published = atomic.pointee.exchange(0, ordering: .sequentiallyConsistent)
        guard let table = UnsafeRawPointer(bitPattern: published) else { return }
        retire(Unmanaged<ReadyTable>.fromOpaque(table))
    }

    /// Under the registry lock: a write added a ready value, which the table lacks.
    func noteAddition() {
        guard #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) else { return }
        isCurrent = false
        missedReads = 0
        generation &+= 1
    }

    /// Under the registry lock: whether a ready value found under the lock may be missing
    /// from the table, so that the resolve should offer to publish a new one.
    var isStale: Bool { !isCurrent }

    /// Under the lock of `registry`, after a locked lookup found what the table could have
    /// served: the registry's published slots, for a new table that the caller builds and
    /// publishes after its unlock (`publish(_:in:)`), when the table is stale, no observer
    /// needs the locked path, no other resolve is building one, and enough reads have missed
    /// it since it went stale that building one is worth its cost.
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @inline(never)
    func noteMissedRead(in registry: UnsafeMutablePointer<Registry>) -> Build? {
        guard !isCurrent, !isBuilding, registry.pointee.diagnostics.instrumentation == nil else { return nil }
        missedReads += 1
        guard missedReads > lastSize >> 4 else { return nil }
        isBuilding = true
        return Build(slots: registry.pointee.publishedSlots, generation: generation)
    }

    /// The slots of a table to build after the unlock, as the registry held them in
    /// `generation`.
    struct Build {
        fileprivate let slots: [Registry.Slot]
        fileprivate let generation: Int
    }

    /// After the caller's unlock: builds the table of `build`, off the lock (its cost grows
    /// with the registry: about 110 ms of fresh memory for 100,000 entries, which would hold
    /// every other resolve of this injector), then publishes it under the lock of `registry`,
    /// unless a write made it stale meanwhile. What is dropped is released after the unlock.
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @inline(never)
    func publish(_ build: Build, in registry: Locked<Registry>) {
        let table = ReadyTable(build.slots)
        let retired = registry.withLock { registry in
            isBuilding = false
            if generation == build.generation, !isCurrent, registry.diagnostics.instrumentation == nil {
                isCurrent = true
                lastSize = table.size
                let replaced = atomic.pointee.exchange(
                    UInt(bitPattern: Unmanaged.passRetained(table).toOpaque()), ordering: .sequentiallyConsistent)
                if let replaced = UnsafeRawPointer(bitPattern: replaced) {
                    retire(Unmanaged<ReadyTable>.fromOpaque(replaced))
                }
            }
            return takeRetired()
        }
        retired.reclaim()
    }

    private func retire(_ table: Unmanaged<ReadyTable>) {
        table._withUnsafeGuaranteedRef { $0.nextRetired = retired }
        retired = table
    }

    /// Under the registry lock: the withdrawn tables, for `reclaim` after the unlock.
    func takeRetired() -> Retired {
        Retired(tables: exchange(&retired, with: nil))
    }

    /// Withdrawn tables, freed (with the slots and values only they still hold) by `reclaim`
    /// after the registry lock is let go, once no reader is inside them.
    struct Retired {
        fileprivate let tables: Unmanaged<ReadyTable>?

        /// Waits until no reader is inside each table, then releases it.
        func reclaim() {
            var table = tables
            while let current = table {
                table = current._withUnsafeGuaranteedRef { $0.nextRetired }
                if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
                    Hazards.waitUntilUnread(UInt(bitPattern: current.toOpaque()))
                }
                Self.release(current)
            }
        }

        /// Releases `table`: a call the optimiser cannot see into, so that it does not hoist
        /// the release above the wait for readers, whose atomic loads never touch the table.
        @inline(never) @_optimize(none)
        private static func release(_ table: Unmanaged<ReadyTable>) {
            table.release()
        }
    }
}

/// A ready slot found in a published table, which stays alive (announced in this thread's
/// hazard record) until the value is copied out. Non-copyable: the announcement is withdrawn
/// once, by `value(as:name:)`, which is inlined into the resolve's caller so that a value of
/// the registered type itself is copied out of its `ReadyValue<T>` with `T` known: no cast.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
@usableFromInline
@frozen
struct ProtectedSlot: ~Copyable {
    /// A ready slot's `ReadyValue`, if the value has the registered type.
    @usableFromInline let typed: Unmanaged<AnyObject>?
    /// The `Registry.Slot`, unretained.
    @usableFromInline let slot: UnsafeMutableRawPointer
    /// A transient's `Registration`, unretained.
    @usableFromInline let transient: UnsafeMutableRawPointer?
    /// This thread's hazard (an `Atomic<UInt>`), which names the table until the slot is read.
    @usableFromInline let hazard: UnsafeMutableRawPointer

    /// The value as a `T`, the type the slot was found under (its key's, registered under
    /// `name`), copied, or made by `injector` from a transient's factory; withdraws the
    /// announcement once the slot is read, before any factory runs.
    @inlinable
    consuming func value<T>(as type: T.Type, name: String?, in injector: DependencyInjector) throws(InjectionError)
        -> T
    {
        let hazard = self.hazard
        guard let typed else {
            let (slot, transient) = (self.slot, self.transient)
            discard self
            return try injector.resolve(found: slot, transient: transient, hazard: hazard, as: type, name: name)
        }
        discard self
        // Safe: a slot has a `typed` box only when the value's type is the key's, `T`.
        let value = typed._withUnsafeGuaranteedRef { unsafeDowncast($0, to: ReadyValue<T>.self).value }
        // Only now, with the copy retained (see `clear`).
        Self.clear(hazard)
        return value
    }

    /// The value as a `T`, which need not be the key's type (`Any?`, say): cast, or made by
    /// `injector` and cast; withdraws the announcement once the slot is read.
    consuming func cast<T>(to type: T.Type, key: DependencyKey, in injector: DependencyInjector) throws(InjectionError)
        -> T
    {
        let (slot, transient, hazard) = (self.slot, self.transient, self.hazard)
        discard self
        return try injector.resolve(found: slot, transient: transient, hazard: hazard, as: type, key: key)
    }

    /// Withdraws the announcement: the slot has been read (a release store, so that a writer
    /// that reads the cleared hazard sees every read of the table before it).
    ///
    /// A call the optimiser cannot see into, so that it may release anything as far as the
    /// optimiser knows: the retain of a value copied out of the table stays before it. An
    /// atomic store alone is no such barrier: the retain sank below it (seen in the release
    /// build's code), after which the table, and the value with it, could be freed first.
    @usableFromInline
    @inline(never) @_optimize(none)
    static func clear(_ hazard: UnsafeMutableRawPointer) {
        hazard.assumingMemoryBound(to: Atomic<UInt>.self).pointee.store(0, ordering: .releasing)
    }

    deinit {
        Self.clear(hazard)
    }
}

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
        if let record = pthread_getspecific(key) { return record.assumingMemoryBound(to: Atomic<UInt>.self) }
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
        pthread_setspecific(key, record)
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
        while isRead(table) { sched_yield() }
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
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, giveBackRecord)
        return key
    }()
}

#if canImport(Darwin)
    private func giveBackRecord(_ pointer: UnsafeMutableRawPointer) {
        if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) { Hazards.giveBack(pointer) }
    }
#else
    private func giveBackRecord(_ pointer: UnsafeMutableRawPointer?) {
        guard let pointer else { return }
        Hazards.giveBack(pointer)
    }
#endif
