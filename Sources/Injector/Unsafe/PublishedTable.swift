import Synchronization

/// One injector's ready values, published for resolves that take no lock: a `ReadyTable`
/// behind an atomic pointer, kept in step with the registry by every write, under the
/// registry lock (see `Registry.replace(_:withSlot:)`).
///
/// The registry stays the source of truth; the table holds exactly its ready slots. A write
/// changes the table in place: a value added (an instance registered, a singleton created) is
/// inserted, one removed or replaced is removed (see `ReadyTable`), so no resolve ever builds
/// a table, and the first resolve after any number of registrations reads it like any other.
/// A table that a write would fill past half is rebuilt larger, from its own live entries, by
/// that write: amortised, about two entries copied per insertion.
///
/// Reclamation is by hazard pointers (`Hazards`): a reader announces the table it reads in its
/// thread's own record. A replaced table is freed once no record names it; a removed entry's
/// owner is released once every record that named the table when it was removed has moved on.
/// Readers never wait and write only their own record; a writer waits, after its unlock, for
/// the few readers that are inside the table at that instant (a dozen instructions each, no
/// user code, no lock). Chosen over epochs, which free late when one thread stops between
/// resolves, and over keeping old entries until the injector goes away, which would keep
/// unregistered values alive too.
///
/// Needs `Synchronization.Atomic` (macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2); before
/// those, nothing is published and every resolve takes the registry lock, as it did.
@usableFromInline
final class PublishedTable: ManagedBuffer<PublishedTableFields, UInt64> {
    // Shared across threads as `DependencyInjector.ready` (`nonisolated(unsafe)`: a
    // `ManagedBuffer` is never `Sendable`). What a resolve reads without the lock is in its
    // `cell`, in the tail, touched only atomically (the published word: an unmanaged
    // `ReadyTable` or 0; the filters and flags) or set before anyone can see the table
    // (`above`). The fields, the header, are touched only under the owning injector's registry
    // lock (or in `deinit`): never beside what is read without it, which made every resolve
    // race with a write in the thread sanitizer's eyes (its marker for a field reached through
    // the header's pointer is the header's address). Reached through their pointer, not
    // stored `var`s: the lock gives exclusive access, and each checked access is dear (one
    // every registry write, two an opened scope's close and release). A `ManagedBuffer`, so
    // that the cell is the object's tail (see `make(above:)`).

    /// The header, where it never moves: reached through its pointer, never as `header`,
    /// whose every access would pay an exclusivity check. Only under the registry lock.
    private var fields: UnsafeMutablePointer<PublishedTableFields> {
        @inline(__always) get { withUnsafeMutablePointerToHeader { $0 } }
    }

    /// The published word, with the filters, flags and decorator list beside it (see their
    /// cells): a line of its own in the tail, aligned there (see `make(above:)`).
    private var cell: UnsafeMutableRawPointer {
        @inline(__always) get {
            withUnsafeMutablePointerToElements { UnsafeMutableRawPointer($0) }.alignedUp(toMultipleOf: Self.lineSize)
        }
    }
    /// Tables replaced and not yet freed, with the next in `ReadyTable.nextRetired`.
    private var retired: UnsafeMutableRawPointer? {
        get { fields.pointee.retired }
        _modify { yield &fields.pointee.retired }
    }
    /// The owners of removed entries, each with the address of the table it was removed from,
    /// to be released once that table's readers have moved on.
    private var removedOwners: [(table: UInt, owner: Unmanaged<AnyObject>)] {
        get { fields.pointee.removedOwners }
        _modify { yield &fields.pointee.removedOwners }
    }
    /// What the table carries while resolves are observed (or verified): the hook, which a
    /// resolve that reads a value from the table it announced reports to (see
    /// `instrumentation(announcedIn:)`). `nil` while nothing observes this injector.
    private(set) var instrumentation: Instrumentation? {
        get { fields.pointee.instrumentation }
        _modify { yield &fields.pointee.instrumentation }
    }
    /// The types this injector has held anything of (see `heldTypesCell`), under the
    /// registry lock; bits are only added.
    private var heldTypes: UInt64 {
        get { fields.pointee.heldTypes }
        _modify { yield &fields.pointee.heldTypes }
    }

    /// Where `above` is kept: its address (retained), or 0. Set before anyone can see the table.
    private var aboveCell: UnsafeMutableRawPointer { cell + 40 }

    /// The parent's table, which a resolve of a type this injector holds nothing of reads
    /// instead of this one (see `slotPassingMissesUp`); `nil` when a miss here must take the
    /// walk (the root, a child that keeps copies or screens its ancestors, a child of an
    /// opened scope). Held by this table (retained in `make(above:)`, released in `deinit`).
    @inline(__always)
    private var above: Unmanaged<PublishedTable>? {
        UnsafeRawPointer(bitPattern: aboveCell.load(as: UInt.self)).map { Unmanaged.fromOpaque($0) }
    }

    /// A cache line: the cell is one, so that readers, which load it on every resolve, do
    /// not miss the cache when a neighbour is written by other threads (a value's reference
    /// count, say).
    private static let lineSize = 128

    /// Creates the table of an injector whose misses go to `above`'s table when it holds
    /// nothing of the type asked for.
    static func make(above: PublishedTable? = nil) -> PublishedTable {
        // The cell is the tail, two lines long, so that a whole line, aligned, is in it: no
        // allocation of its own (a malloc and a free per opened scope), and none aligned (dear
        // for a new root injector). Its address is computed, not loaded (a few instructions a lookup).
        let table = unsafeDowncast(
            create(minimumCapacity: 2 * lineSize / MemoryLayout<UInt64>.stride) { _ in PublishedTableFields() },
            to: PublishedTable.self)
        let cell = table.cell
        let above = above.map { UInt(bitPattern: Unmanaged.passRetained($0).toOpaque()) } ?? 0
        table.aboveCell.bindMemory(to: UInt.self, capacity: 1).initialize(to: above)
        if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
            cell.bindMemory(to: Atomic<UInt>.self, capacity: 1).initialize(to: Atomic(0))
            table.heldTypesCell.bindMemory(to: Atomic<UInt64>.self, capacity: 1).initialize(to: Atomic(0))
            table.decoratedCell.bindMemory(to: Atomic<UInt64>.self, capacity: 1).initialize(to: Atomic(0))
            // The three flags' bytes follow one another (a range, where an array is an allocation).
            for offset in Self.instrumentedOffset...Self.failuresNotedOffset {
                (cell + offset).bindMemory(to: Atomic<Bool>.self, capacity: 1).initialize(to: Atomic(false))
            }
            table.decoratorListCell.bindMemory(to: Atomic<UInt>.self, capacity: 1).initialize(to: Atomic(0))
        }
        return table
    }

    /// The flag at `cell + offset` (one of the three below), read without the registry's lock;
    /// `nil` where the OS has no atomics for it: the caller assumes what asks the registry.
    @inline(__always)
    private func flag(at offset: Int) -> Bool? {
        guard #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) else { return nil }
        return (cell + offset).assumingMemoryBound(to: Atomic<Bool>.self).pointee.load(ordering: .acquiring)
    }

    /// Sets the flag at `cell + offset` to `value`, under the registry lock (or before anyone
    /// can see the injector). Only `isInstrumented`'s is ever set back to `false`.
    private func setFlag(at offset: Int, to value: Bool = true) {
        guard #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) else { return }
        (cell + offset).assumingMemoryBound(to: Atomic<Bool>.self).pointee.store(value, ordering: .releasing)
    }

    /// Where the flag of each is: whether resolves are observed or verified (`isInstrumented`),
    /// whether `close()` has begun (`mayBeClosed`), whether a teardown failure was ever noted
    /// outside `close()` (`mayHaveNotedFailures`).
    private static let instrumentedOffset = 24
    private static let closedOffset = 25
    private static let failuresNotedOffset = 26

    /// Whether the injector may be closed, known without its lock: `false` only while its
    /// `close()` has not begun. A scope opened under it takes the lock to ask only then, not
    /// on every request.
    var mayBeClosed: Bool { flag(at: Self.closedOffset) ?? true }

    /// Whether the injector's `close()` has begun, known without its lock: `false` where it
    /// cannot be known so. A closed scope's release takes no lock for it.
    var isKnownClosed: Bool { flag(at: Self.closedOffset) ?? false }

    /// As `close()` begins, under the registry lock (or before anyone can see the injector: a
    /// scope closed from the start): publishes it for `mayBeClosed`.
    func noteClosed() {
        setFlag(at: Self.closedOffset)
    }

    /// Whether the registry may hold teardown failures noted outside `close()`, known without
    /// its lock: `false` only while none was ever noted. A close takes the lock for them only then.
    var mayHaveNotedFailures: Bool { flag(at: Self.failuresNotedOffset) ?? true }

    /// Under the registry lock, as a teardown failure is noted: publishes it for `mayHaveNotedFailures`.
    func noteFailuresNoted() {
        setFlag(at: Self.failuresNotedOffset)
    }

    /// Whether resolves through this injector may be observed or verified now, known without
    /// its lock: an injector opened under it (a request's scope) takes the lock to inherit the
    /// hook only then, not on every request.
    var isInstrumented: Bool { flag(at: Self.instrumentedOffset) ?? true }

    /// A filter of the types this injector holds something of (a registration, a value, a
    /// collection's gathering; see `TypeFilter`), set under the registry lock by every write
    /// that stores a slot and never cleared: an unset bit means the registry has held
    /// nothing of the type, so a resolve may pass this injector by. Every bit is set while
    /// resolves are observed, so that none passes an observed injector by. In the published
    /// word's cache line: a resolve through a scope reads both.
    private var heldTypesCell: UnsafeMutableRawPointer { cell + 8 }

    /// Under the registry lock: the registry stores a slot of `type`.
    func noteHeld(_ type: ObjectIdentifier) {
        guard #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) else { return }
        let held = heldTypes | TypeFilter.bits(of: type)
        guard held != heldTypes else { return }
        heldTypes = held
        publishHeldTypes()
    }

    /// Publishes `heldTypes`, or every bit while resolves are observed.
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    private func publishHeldTypes() {
        heldTypesCell.assumingMemoryBound(to: Atomic<UInt64>.self).pointee.store(
            instrumentation == nil ? heldTypes : .max, ordering: .releasing)
    }

    /// Whether this injector's registry has held nothing of `type`, so that a lookup there
    /// would miss: known without its lock.
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @inline(__always)
    private func holdsNothing(of type: ObjectIdentifier) -> Bool {
        let held = heldTypesCell.assumingMemoryBound(to: Atomic<UInt64>.self).pointee.load(ordering: .relaxed)
        return !TypeFilter.mayHold(TypeFilter.bits(of: type), in: held)
    }

    /// `slot(for:name:)` of an injector whose misses go up (`above`): the slot in the table of
    /// the nearest injector, from this one up, that has held something of `type`, or that
    /// passes no miss up. What the walk would find first, so a request's resolve of the app's
    /// logger reads the app's table and takes no lock. Races with a write are ordered as with
    /// any read: a type registered here before the resolve began has its bit set (bits are
    /// only added). Apart, so that the root's resolves pay one test for it.
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @inline(never)
    private func slotPassingMissesUp(for type: ObjectIdentifier, name: String?, readingObserved: Bool)
        -> ProtectedSlot?
    {
        // Unretained: each table is kept alive by the one below it, and this one by the caller.
        // Only the holder's word is read (the probe itself needs no table object), so that no
        // reference to it is counted.
        var table = Unmanaged.passUnretained(self)
        while let above = table._withUnsafeGuaranteedRef({ $0.holdsNothing(of: type) ? $0.above : nil }) {
            table = above
        }
        return Self.slot(
            for: type, name: name, in: table._withUnsafeGuaranteedRef { $0.cell },
            readingObserved: readingObserved && table.toOpaque() == Unmanaged.passUnretained(self).toOpaque())
    }

    /// Where `decoratedTypes` is kept: beside the table's word, on its line, which only
    /// start-up writes (a decorator is added once, a table rarely replaced after it).
    private var decoratedCell: UnsafeMutableRawPointer { cell + 16 }

    /// The registry's filter of the types this injector has decorators for (see
    /// `TypeFilter`), read with no lock by every factory run of it and its descendants
    /// (relaxed: a decorator added before a resolve, in any order the program sees, is seen by
    /// it; one added while a factory runs may be missed, as `decorate` says). `nil` before
    /// `Synchronization`: the caller reads the registry's under the lock.
    var decoratedTypes: UInt64? {
        guard #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) else { return nil }
        return decoratedCell.assumingMemoryBound(to: Atomic<UInt64>.self).pointee.load(ordering: .relaxed)
    }

    /// Under the registry lock, as the decorator is stored: `bits` join `decoratedTypes`.
    func noteDecorated(_ bits: UInt64) {
        guard #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) else { return }
        decoratedCell.assumingMemoryBound(to: Atomic<UInt64>.self).pointee.bitwiseOr(bits, ordering: .relaxed)
    }

    /// Where the published `DecoratorList` is kept: its address, or 0 while none is current.
    private var decoratorListCell: UnsafeMutableRawPointer { cell + 32 }

    /// Every `DecoratorList` published, the current one last, under the registry lock: each
    /// lives as long as the injector, for a factory run may be applying one, unretained, when
    /// a `decorate` call replaces it (an injector decorated at start-up publishes one).
    private var decoratorLists: [DecoratorList] {
        get { fields.pointee.decoratorLists }
        _modify { yield &fields.pointee.decoratorLists }
    }
    /// Whether the last of `decoratorLists` holds the registry's decorators as they are now.
    private var decoratorListIsCurrent: Bool {
        get { fields.pointee.decoratorListIsCurrent }
        _modify { yield &fields.pointee.decoratorListIsCurrent }
    }

    /// The injector's decorators as published (see `DecoratorList`), read with no lock by
    /// factory runs of keys its filter may decorate (acquiring: a list published by another
    /// thread is seen whole; one published before a `decorate` call is withdrawn by it, so a
    /// run that follows the call never reads it). Unretained: valid while the injector lives.
    /// `nil` while none is current, and always before `Synchronization`: the caller asks the
    /// registry, under its lock (`Registry.decoratorList()`).
    @inline(__always)
    var decoratorList: Unmanaged<DecoratorList>? {
        guard #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) else { return nil }
        let address = decoratorListCell.assumingMemoryBound(to: Atomic<UInt>.self).pointee.load(ordering: .acquiring)
        return UnsafeRawPointer(bitPattern: address).map { Unmanaged<DecoratorList>.fromOpaque($0) }
    }

    /// Under the registry lock: the list of `decorators`, the registry's, published (the
    /// current one, else a new one, kept with the others).
    func decoratorList(of decorators: Decorators) -> Unmanaged<DecoratorList> {
        if decoratorListIsCurrent, let current = decoratorLists.last { return .passUnretained(current) }
        let list = DecoratorList(decorators)
        decoratorLists.append(list)
        decoratorListIsCurrent = true
        if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
            decoratorListCell.assumingMemoryBound(to: Atomic<UInt>.self).pointee.store(
                UInt(bitPattern: Unmanaged.passUnretained(list).toOpaque()), ordering: .releasing)
        }
        return .passUnretained(list)
    }

    /// Under the registry lock, as its decorators change: the published list is no longer
    /// current (it stays alive: a run may be applying it), and the next run's read publishes one.
    func withdrawDecoratorList() {
        decoratorListIsCurrent = false
        guard #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) else { return }
        decoratorListCell.assumingMemoryBound(to: Atomic<UInt>.self).pointee.store(0, ordering: .releasing)
    }

    deinit {
        // The injector is going away, so no resolve of it is reading: free without waiting.
        if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
            if let published = UnsafeRawPointer(bitPattern: atomic(cell).pointee.load(ordering: .acquiring)) {
                Unmanaged<ReadyTable>.fromOpaque(published).release()
            }
            var table = retired.map { Unmanaged<ReadyTable>.fromOpaque($0) }
            while let current = table {
                table = current._withUnsafeGuaranteedRef { $0.nextRetired }
                current.release()
            }
        }
        for removed in removedOwners { removed.owner.release() }
        above?.release()
        // The fields, the header, go with the object, and the cell with it.
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    private func atomic(_ word: UnsafeMutableRawPointer) -> UnsafeMutablePointer<Atomic<UInt>> {
        word.assumingMemoryBound(to: Atomic<UInt>.self)
    }

    /// The published table, under the registry lock (no reader changes it).
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    private var table: ReadyTable? {
        guard let published = UnsafeRawPointer(bitPattern: atomic(cell).pointee.load(ordering: .relaxed)) else {
            return nil
        }
        return Unmanaged<ReadyTable>.fromOpaque(published).takeUnretainedValue()
    }

    /// The ready slot for `type` under `name`, announced in this thread's hazard record so
    /// that its table stays alive until the `ProtectedSlot` is consumed; `nil` when the table
    /// has no such key, or there is no table. The table is an ancestor's when this injector
    /// holds nothing of `type` (see `slotPassingMissesUp`): a transient found there is still
    /// made by the resolving injector, which the caller passes to the slot. Takes no lock and
    /// writes only this thread's record. Always `nil` before `Synchronization`, where nothing
    /// is published. While resolves are observed, a value is found marked (see
    /// `ProtectedSlot.hazard`): the sync face's resolve reports it, with this thread's
    /// context; a factory is not found at all: the locked path runs and times it.
    @usableFromInline
    func slot(for type: ObjectIdentifier, name: String?) -> ProtectedSlot? {
        slot(for: type, name: name, readingObserved: true)
    }

    /// `slot(for:name:)` for the actor face, `nil` while resolves are observed: its resolves
    /// say what led to them in their task, which its locked path reads.
    @usableFromInline
    func slotUnlessObserved(for type: ObjectIdentifier, name: String?) -> ProtectedSlot? {
        slot(for: type, name: name, readingObserved: false)
    }

    @inline(__always)
    private func slot(for type: ObjectIdentifier, name: String?, readingObserved: Bool) -> ProtectedSlot? {
        guard #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) else { return nil }
        guard above == nil else { return slotPassingMissesUp(for: type, name: name, readingObserved: readingObserved) }
        return Self.slot(for: type, name: name, in: cell, readingObserved: readingObserved)
    }

    /// The ready slot for `type` under `name` in the table published in `word`; `nil` when
    /// that table is observed, unless `readingObserved` (the resolving injector's own table:
    /// another's observer is not told of this injector's resolves).
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @inline(__always)
    private static func slot(
        for type: ObjectIdentifier, name: String?, in word: UnsafeMutableRawPointer, readingObserved: Bool
    ) -> ProtectedSlot? {
        // A large name is hashed before the announcement, which then lasts only for the probe.
        let largeNameHash = ReadyTable.largeNameHash(name)
        guard let hazard = Hazards.announce(word),
            let table = UnsafeRawPointer(bitPattern: hazard.address),
            let entry = Unmanaged<ReadyTable>.fromOpaque(table)._withUnsafeGuaranteedRef({
                $0.entry(for: type, name: name, largeNameHash: largeNameHash)
            }),
            let owner = entry.pointee.owner
        else { return nil }  // a guard dropped here withdraws its announcement
        let (typed, transient) = (entry.pointee.typed, entry.pointee.transient)
        guard Unmanaged<ReadyTable>.fromOpaque(table)._withUnsafeGuaranteedRef({ $0.isObserved }) else {
            return ProtectedSlot(typed: typed, slot: owner, transient: transient, hazard: hazard)
        }
        // A factory, or a value with no box of its key's type (rare: a value forwarded under
        // another key, say), takes the locked path, which reports it.
        guard readingObserved, transient == nil, typed != nil else { return nil }
        return ProtectedSlot(typed: typed, slot: owner, transient: nil, hazard: hazard, isObserved: true)
    }

    /// The observation hook of the table this thread announced in its hazard `record` (the
    /// table of a marked slot being read, see `slot(for:name:)`), retained; `nil` when that
    /// table is not observed.
    static func instrumentation(announcedIn record: UnsafeMutableRawPointer) -> Instrumentation? {
        guard #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *),
            let table = UnsafeRawPointer(bitPattern: Hazards.announcedAddress(in: record))
        else { return nil }
        return Unmanaged<ReadyTable>.fromOpaque(table)._withUnsafeGuaranteedRef { $0.instrumentation }
    }

    /// Under the registry lock: a write added `published` under `key`. Inserted in place; the
    /// first insertion publishes a table, and one the insertion would fill past half is
    /// replaced by a larger copy.
    func insert(_ key: DependencyKey, _ published: Registry.Slot.Published) {
        guard #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) else { return }
        guard let table else {
            let table = ReadyTable(instrumentation: instrumentation)
            _ = table.insert(key, published)
            publish(table)
            return
        }
        if table.insert(key, published) { return }
        // Half full, or too many removed slots on the way: a copy of the live entries.
        let larger = ReadyTable(copying: table, instrumentation: instrumentation)
        _ = larger.insert(key, published)
        publish(larger)
    }

    /// Under the registry lock: a write removed or replaced what is stored under `key`. Its
    /// entry is removed in place; its owner is released by `reclaim` after the unlock, once the
    /// table's readers have moved on.
    func remove(_ key: DependencyKey) {
        guard #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *), let table,
            let owner = table.remove(key)
        else { return }
        removedOwners.append((UInt(bitPattern: Unmanaged.passUnretained(table).toOpaque()), owner))
    }

    /// Under the registry lock: resolves are observed through `instrumentation` from now on
    /// (`nil`: no longer). The table is copied to carry it, and published in its place; the
    /// old one is freed by `reclaim` after the unlock. A resolve running meanwhile may or may
    /// not be observed, as with any hook installed while resolves run.
    func observe(through instrumentation: Instrumentation?) {
        guard #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) else { return }
        let current = table
        let replaced = atomic(cell).pointee.exchange(0, ordering: .sequentiallyConsistent)
        self.instrumentation = instrumentation
        setFlag(at: Self.instrumentedOffset, to: instrumentation != nil)
        publishHeldTypes()
        if let current { publish(ReadyTable(copying: current, instrumentation: instrumentation)) }
        if let replaced = UnsafeRawPointer(bitPattern: replaced) { retire(Unmanaged<ReadyTable>.fromOpaque(replaced)) }
    }

    /// Under the registry lock: publishes `table` in place of the current one, which is
    /// retired.
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    private func publish(_ table: ReadyTable) {
        let replaced = atomic(cell).pointee.exchange(
            UInt(bitPattern: Unmanaged.passRetained(table).toOpaque()), ordering: .sequentiallyConsistent)
        if let replaced = UnsafeRawPointer(bitPattern: replaced) {
            retire(Unmanaged<ReadyTable>.fromOpaque(replaced))
        }
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    private func retire(_ table: Unmanaged<ReadyTable>) {
        table._withUnsafeGuaranteedRef { $0.nextRetired = retired.map { Unmanaged<ReadyTable>.fromOpaque($0) } }
        retired = table.toOpaque()
    }

    /// Under the registry lock: the replaced tables and removed entries' owners, for
    /// `reclaim` after the unlock.
    func takeRetired() -> Retired {
        Retired(tables: exchange(&retired, with: nil), owners: exchange(&removedOwners, with: []))
    }

    /// Replaced tables and removed entries' owners, freed (with the values only they still
    /// hold) by `reclaim` after the registry lock is let go, once the readers inside them
    /// when they were taken out have left.
    struct Retired {
        fileprivate let tables: UnsafeMutableRawPointer?
        fileprivate let owners: [(table: UInt, owner: Unmanaged<AnyObject>)]

        /// Releases each removed entry's owner, and each replaced table, once the readers
        /// that were inside its table when it was taken out have left: at once when none was,
        /// else later, without waiting (see `DeferredReleases`). First, what earlier writes
        /// left for readers that have left since. Apart, for the stack.
        @inline(never)
        func reclaim() {
            // A write that took nothing out (a new key) has nothing to release, and leaves what
            // earlier writes left to the next that does, or to the background pass.
            guard #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *), tables != nil || !owners.isEmpty
            else { return }
            DeferredReleases.releaseWhatReadersLeft()
            // Owners removed from one table come together: its announcements are looked at once.
            var table: UInt = 0
            var announcements: [Hazards.Announcement] = []
            for removed in owners {
                if removed.table != table {
                    table = removed.table
                    announcements = Hazards.announcements(of: table)
                }
                DeferredReleases.release(removed.owner, after: announcements)
            }
            var retired = tables.map { Unmanaged<ReadyTable>.fromOpaque($0) }
            while let current = retired {
                retired = current._withUnsafeGuaranteedRef { $0.nextRetired }
                let address = UInt(bitPattern: current.toOpaque())
                DeferredReleases.release(
                    Unmanaged<AnyObject>.fromOpaque(current.toOpaque()), after: Hazards.announcements(of: address))
            }
        }
    }
}

/// A `PublishedTable`'s fields (its header), touched only under the owning injector's
/// registry lock (or before anyone can see the table, or in its `deinit`).
@usableFromInline
struct PublishedTableFields {
    /// See `PublishedTable.retired`.
    var retired: UnsafeMutableRawPointer?
    /// See `PublishedTable.removedOwners`.
    var removedOwners: [(table: UInt, owner: Unmanaged<AnyObject>)] = []
    /// See `PublishedTable.instrumentation`.
    var instrumentation: Instrumentation?
    /// See `PublishedTable.heldTypes`.
    var heldTypes: UInt64 = 0
    /// See `PublishedTable.decoratorLists`.
    var decoratorLists: [DecoratorList] = []
    /// See `PublishedTable.decoratorListIsCurrent`.
    var decoratorListIsCurrent = false
}
