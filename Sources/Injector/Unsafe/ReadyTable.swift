import Synchronization

/// What one injector can hand out without running a factory under its lock: its ready values
/// (registered instances, created singletons) and its transients' plain factories. A resolve
/// reads it without the registry lock (see `PublishedTable`).
///
/// Open addressing with linear probing, at most half full, so a lookup of a key that is
/// there usually touches one slot, however many the injector holds. Writers (under the
/// registry lock) change it in place, in two ways only, so that a reader never sees a slot
/// half written:
/// - **an insertion** fills an empty slot, then stores its key word (release): a reader that
///   loads the word sees the rest of the slot;
/// - **a removal** stores the tombstone in the key word (sequentially consistent) and hands
///   the slot's owner to the writer, who releases it once every reader that was inside the
///   table has left (`Hazards.waitUntilEachLeaves`). A tombstone is never reused: a table
///   whose live and dead slots fill half of it, or where an insertion passes more than a few dead
///   slots, is rebuilt without them (`init(copying:)`).
///
/// Each slot is a key word (an `Atomic<UInt>`: a type's identity, 0 when empty, 1 when
/// removed) followed by its `Entry`, in one stride. The live entries retain the registry's
/// ready slots and published transients' registrations (each entry's `owner`); a table is
/// released only when no reader can still be reading it, and that releases them (and maybe
/// values: user code) outside every lock.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
final class ReadyTable {
    struct Entry {
        var hash: UInt
        var name: String?
        /// A small name's two words (see `smallName(_:)`); zeros for none or a larger one.
        var small: (UInt64, UInt64)
        /// What the table retains for the entry (see `Registry.Slot.published`): the `ReadySlot`,
        /// or a transient's `Registration`.
        var owner: Unmanaged<AnyObject>?
        /// A ready slot's `typed` value, if any; kept alive by `owner`.
        var typed: Unmanaged<AnyObject>?
        /// A transient's or scoped registration (then also the `owner`).
        var transient: Unmanaged<Registration>?
    }

    /// The key word of an empty slot, and of a removed one. (Computed, so that they fold into
    /// constants: a stored static would be a lazy global, initialised through `swift_once`.)
    @inline(__always) private static var empty: UInt { 0 }
    @inline(__always) private static var removed: UInt { 1 }

    private let slots: UnsafeMutableRawPointer
    private let capacity: Int
    /// `64 - log2(capacity)`: a hash's top bits are its first slot (Fibonacci hashing).
    private let shift: UInt
    /// Slots in use, live or removed; and live ones (under the registry lock).
    private var used = 0
    private(set) var live = 0
    /// The next table in a `PublishedTable` list of replaced tables.
    var nextRetired: Unmanaged<ReadyTable>?
    /// The observation hook while resolves are observed (see
    /// `PublishedTable.instrumentation(announcedIn:)`): fixed for the table's life, so that a
    /// reader that announced the table may read it.
    let instrumentation: Instrumentation?
    /// Whether it carries `instrumentation`: a stored flag, which a reader tests with no
    /// reference counted.
    let isObserved: Bool

    /// A slot's stride: its key word, then its entry.
    private static var stride: Int {
        (MemoryLayout<Atomic<UInt>>.size + MemoryLayout<Entry>.alignment - 1) / MemoryLayout<Entry>.alignment
            * MemoryLayout<Entry>.alignment + MemoryLayout<Entry>.stride
    }
    private static var entryOffset: Int { stride - MemoryLayout<Entry>.stride }

    /// An empty table with room for `capacity` slots (a power of two).
    private init(capacity: Int, instrumentation: Instrumentation?) {
        self.capacity = capacity
        self.instrumentation = instrumentation
        isObserved = instrumentation != nil
        shift = UInt(UInt.bitWidth - capacity.trailingZeroBitCount)
        slots = RawMemory.allocate(byteCount: capacity * Self.stride, alignment: max(16, MemoryLayout<Entry>.alignment))
        for index in 0..<capacity {
            let slot = slots + index * Self.stride
            slot.bindMemory(to: Atomic<UInt>.self, capacity: 1).initialize(to: Atomic(Self.empty))
            (slot + Self.entryOffset).bindMemory(to: Entry.self, capacity: 1).initialize(
                to: Entry(hash: 0, name: nil, small: (0, 0), owner: nil, typed: nil, transient: nil))
        }
    }

    /// An empty table, which carries `instrumentation`.
    convenience init(instrumentation: Instrumentation?) {
        self.init(capacity: Self.capacity(for: 0), instrumentation: instrumentation)
    }

    /// A table of `table`'s live entries, with room for as many again and more (a quarter full
    /// at most), so that the next rebuild is as many insertions away: about two entries
    /// copied per insertion, over time. It carries `instrumentation`.
    convenience init(copying table: ReadyTable, instrumentation: Instrumentation?) {
        self.init(capacity: Self.capacity(for: table.live * 2), instrumentation: instrumentation)
        for index in 0..<table.capacity where table.key(at: index).pointee.load(ordering: .relaxed) > Self.removed {
            let word = table.key(at: index).pointee.load(ordering: .relaxed)
            let entry = table.entry(at: index).pointee
            guard let owner = entry.owner else { continue }
            place(word, entry, retaining: owner)
        }
    }

    /// The capacity (a power of two, 8 at least) at which `count` entries fill half or less.
    private static func capacity(for count: Int) -> Int {
        var capacity = 8
        while capacity < count * 2 { capacity *= 2 }
        return capacity
    }

    deinit {
        for index in 0..<capacity {
            if key(at: index).pointee.load(ordering: .relaxed) > Self.removed {
                entry(at: index).pointee.owner?.release()
            }
            entry(at: index).deinitialize(count: 1)
            key(at: index).deinitialize(count: 1)
        }
        RawMemory.deallocate(slots)
    }

    @inline(__always)
    private func key(at index: Int) -> UnsafeMutablePointer<Atomic<UInt>> {
        (slots + index * Self.stride).assumingMemoryBound(to: Atomic<UInt>.self)
    }

    @inline(__always)
    private func entry(at index: Int) -> UnsafeMutablePointer<Entry> {
        (slots + index * Self.stride + Self.entryOffset).assumingMemoryBound(to: Entry.self)
    }

    /// Under the registry lock: stores `published` under `key`, retained, unless the table
    /// would be more than half full with it, or its place lies past too many removed slots
    /// (`false`: the caller rebuilds it, larger and without them).
    func insert(_ key: DependencyKey, _ published: Registry.Slot.Published) -> Bool {
        guard (used + 1) * 2 <= capacity else { return false }
        let small = key.name.flatMap(Self.smallName) ?? (0, 0)
        let entry = Entry(
            hash: Self.hash(key.typeID, key.name, small: small), name: key.name, small: small, owner: nil,
            typed: published.typed.map { .passUnretained($0) },
            transient: published.transient.map { .passUnretained($0) })
        return place(UInt(bitPattern: key.typeID), entry, retaining: .passUnretained(published.owner))
    }

    /// How many removed slots an insertion may walk past before the table is rebuilt without
    /// them: a key registered again and again would otherwise lengthen its own probe by one
    /// slot each time (tombstones are never reused). Rebuilt after that many, the cost is a
    /// copy of the live entries per 8 re-registrations of one key, where each re-registration
    /// used to withdraw the whole table.
    private static var tombstonesAllowed: Int { 8 }

    /// Fills the first empty slot from `entry.hash`'s with `entry`, `owner` retained, then
    /// publishes it by its key word; `false`, with nothing written, when the way there passes
    /// more removed slots than `tombstonesAllowed`.
    @discardableResult
    private func place(_ word: UInt, _ entry: Entry, retaining owner: Unmanaged<AnyObject>) -> Bool {
        var index = Int(truncatingIfNeeded: entry.hash >> shift)
        var tombstones = 0
        while true {
            let found = key(at: index).pointee.load(ordering: .relaxed)
            if found == Self.empty { break }
            if found == Self.removed {
                tombstones += 1
                if tombstones > Self.tombstonesAllowed { return false }
            }
            index = (index + 1) & (capacity - 1)
        }
        var entry = entry
        entry.owner = owner.retain()
        self.entry(at: index).pointee = entry
        key(at: index).pointee.store(word, ordering: .releasing)
        used += 1
        live += 1
        return true
    }

    /// Under the registry lock: removes the entry for `key`, if the table has it, and returns
    /// its owner, which the caller releases once no reader is inside the table.
    func remove(_ key: DependencyKey) -> Unmanaged<AnyObject>? {
        let small = key.name.flatMap(Self.smallName) ?? (0, 0)
        let largeNameHash = small.1 == 0 ? Self.largeNameHash(key.name) : 0
        guard let index = index(of: key.typeID, name: key.name, largeNameHash: largeNameHash) else { return nil }
        // Sequentially consistent, as a reader's announcement: of the two, one sees the other
        // (`Hazards.waitUntilEachLeaves`).
        self.key(at: index).pointee.store(Self.removed, ordering: .sequentiallyConsistent)
        live -= 1
        return entry(at: index).pointee.owner
    }

    /// The entry for `type` under `name`, valid while the table is; `nil` when there is none.
    /// A small name is compared by its two words, with no string operation at all; a larger
    /// one by `largeNameHash` (`largeNameHash(_:)`, worked out by the caller before it
    /// announced the table, so that its announcement lasts for the probe alone), then itself.
    @inline(__always)
    func entry(for type: ObjectIdentifier, name: String?, largeNameHash: UInt) -> UnsafeMutablePointer<Entry>? {
        // Not `.map(entry(at:))`: a method reference is a closure, allocated on every lookup.
        guard let index = index(of: type, name: name, largeNameHash: largeNameHash) else { return nil }
        return entry(at: index)
    }

    @inline(__always)
    private func index(of type: ObjectIdentifier, name: String?, largeNameHash: UInt) -> Int? {
        let typeID = UInt(bitPattern: type)
        guard let name else {
            return probe(Self.hash(type, nil, small: (0, 0)), typeID) { $0.name == nil }
        }
        if let small = Self.smallName(name) {
            return probe(Self.hash(type, name, small: small), typeID) {
                $0.small.0 == small.0 && $0.small.1 == small.1
            }
        }
        let hash = (UInt(bitPattern: type) ^ largeNameHash) &* Self.golden
        return probe(hash, typeID) { $0.hash == hash && $0.name == name }
    }

    /// The first slot from `hash`'s place whose key word is `typeID` and whose entry `matches`,
    /// or `nil` at an empty one. The key word is loaded first (sequentially consistent, which
    /// is a plain load on x86 and an ordered one, LDAR, on ARM): the entry is read only once it is seen
    /// published, and a removal is seen by a reader that announced the table after it.
    @inline(__always)
    private func probe(_ hash: UInt, _ typeID: UInt, _ matches: (borrowing Entry) -> Bool) -> Int? {
        var index = Int(truncatingIfNeeded: hash >> shift)
        while true {
            let word = key(at: index).pointee.load(ordering: .sequentiallyConsistent)
            if word == typeID, matches(entry(at: index).pointee) { return index }
            if word == Self.empty { return nil }
            index = (index + 1) & (capacity - 1)
        }
    }

    /// What `entry(for:name:largeNameHash:)` needs for a name that is not small: its hash
    /// (0 for none or a small name, which need none).
    @inline(__always)
    static func largeNameHash(_ name: String?) -> UInt {
        guard let name, smallName(name) == nil else { return 0 }
        return hash(name)
    }

    /// The hash of a key: the type's identity, mixed with its name (`small`: the name's
    /// words if it is small, see `smallName(_:)`). The same as `entry(for:name:largeNameHash:)`
    /// works out for a larger name.
    @inline(__always)
    static func hash(_ type: ObjectIdentifier, _ name: String?, small: (UInt64, UInt64)) -> UInt {
        let identity = UInt(bitPattern: type)
        guard let name else { return identity &* golden }
        let named = small.1 != 0 ? UInt(truncatingIfNeeded: mix(small.0, small.1)) : hash(name)
        return (identity ^ named) &* golden
    }

    /// 2^w divided by the golden ratio, for a word of w bits: multiplying by it spreads keys
    /// over a hash's top bits, which pick the first entry.
    /// (Computed, so that it folds into a constant: a stored static would be a lazy global.)
    @inline(__always)
    private static var golden: UInt {
        #if _pointerBitWidth(_64)
            0x9E37_79B9_7F4A_7C15
        #else
            0x9E37_79B9
        #endif
    }

    /// A small string's two words, which hold its bytes (at most 15 UTF-8 bytes, the common
    /// name), with its count and flags in the top byte; `nil` for a larger or bridged string.
    /// Equal small strings have equal words. A name equal to a small one but not stored as
    /// small (a bridged `NSString`) hashes apart: its lookup misses the table and finds the
    /// value under the lock instead. (`String`'s layout is ABI on 64-bit Apple platforms and
    /// the same on Linux: the second word's bit 61 marks a small string.)
    @inline(__always)
    static func smallName(_ name: String) -> (UInt64, UInt64)? {
        #if _pointerBitWidth(_64)
            let words = unsafeBitCast(name, to: (UInt64, UInt64).self)
            return words.1 & (1 << 61) != 0 ? words : nil
        #else
            return nil
        #endif
    }

    /// A hash of a larger name's UTF-8 bytes, read eight at a time from both ends (as wyhash
    /// does for short keys), cheaper than the standard `Hasher`'s SipHash. Strings that are
    /// equal but spelled with other bytes (Unicode equivalents) hash apart: such a lookup
    /// misses the table and finds its value under the lock instead.
    @inline(never)
    static func hash(_ name: String) -> UInt {
        var name = name
        return name.withUTF8(hash)
    }

    private static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt {
        let count = bytes.count
        guard let base = bytes.baseAddress, count > 0 else { return 0 }
        let raw = UnsafeRawPointer(base)
        var first: UInt64
        var last: UInt64
        if count >= 8 {
            first = UInt64(littleEndian: raw.loadUnaligned(as: UInt64.self))
            last = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self))
            var offset = 8
            while offset < count - 8 {
                first = mix(first, UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)))
                offset += 8
            }
        } else if count >= 4 {
            first = UInt64(UInt32(littleEndian: raw.loadUnaligned(as: UInt32.self)))
            last = UInt64(UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self)))
        } else {
            first = UInt64(base[0]) | UInt64(base[count / 2]) << 8 | UInt64(base[count - 1]) << 16
            last = 0
        }
        return UInt(truncatingIfNeeded: mix(first ^ UInt64(count), last))
    }

    /// Two words folded into one through a full-width multiply.
    @inline(__always)
    static func mix(_ a: UInt64, _ b: UInt64) -> UInt64 {
        let product = (a ^ 0xA076_1D64_78BD_642F).multipliedFullWidth(by: b ^ 0xE703_7ED1_A0B4_28DB)
        return product.high ^ product.low
    }
}
