import Synchronization

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
final class PublishedTable: @unchecked Sendable {
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
    /// record. Always `nil` before `Synchronization`, where nothing is published.
    @usableFromInline
    func slot(for type: ObjectIdentifier, name: String?) -> ProtectedSlot? {
        guard #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) else { return nil }
        // A large name is hashed before the announcement, which then lasts only for the probe.
        let largeNameHash = ReadyTable.largeNameHash(name)
        guard let hazard = Hazards.announce(cell),
            let table = UnsafeRawPointer(bitPattern: hazard.address),
            let entry = Unmanaged<ReadyTable>.fromOpaque(table)._withUnsafeGuaranteedRef({
                $0.entry(for: type, name: name, largeNameHash: largeNameHash)
            }),
            let owner = entry.pointee.owner
        else { return nil }  // a guard dropped here withdraws its announcement
        return ProtectedSlot(
            typed: entry.pointee.typed, slot: owner, transient: entry.pointee.transient, hazard: hazard)
    }

    /// Under the registry lock: a write removed or replaced a ready value, so the table stops
    /// being published; it is freed by `reclaim` after the unlock.
    func withdraw() {
        guard #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) else { return }
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
    @inline(never)
    func noteMissedRead(in registry: UnsafeMutablePointer<Registry>) -> Build? {
        guard #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *), !isCurrent, !isBuilding,
            registry.pointee.diagnostics.instrumentation == nil
        else { return nil }
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
    @inline(never)
    func publish(_ build: Build, in registry: Locked<Registry>) {
        guard #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) else { return }
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

        /// Waits until no reader is inside each table, then releases it. Apart, for the stack.
        @inline(never)
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
