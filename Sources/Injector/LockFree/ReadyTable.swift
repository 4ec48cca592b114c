/// An immutable snapshot of what one injector can hand out without running a factory under
/// its lock: its ready values (registered instances, created singletons) and its transients'
/// plain factories. A resolve reads it without the registry lock (see `PublishedTable`).
///
/// Open addressing with linear probing, at most half full, so a lookup of a key that is
/// there usually touches one entry, however many the injector holds. The entries retain the
/// registry's ready slots and published transients' registrations (each entry's `owner`); a
/// table is released only when no reader can still be reading it, and that releases them
/// (and maybe values: user code) outside every lock.
final class ReadyTable {
    struct Entry {
        /// `ObjectIdentifier` bits; 0 marks an empty entry (no type's identity is 0).
        var typeID: UInt
        var hash: UInt
        var name: String?
        /// A small name's two words (see `smallName(_:)`); zeros for none or a larger one.
        var small: (UInt64, UInt64)
        /// What the table retains for the entry (see `Registry.Slot.published`): the `ReadySlot`,
        /// or a transient's `Registration`; `nil` marks an empty entry too.
        var owner: Unmanaged<AnyObject>?
        /// A ready slot's `typed` value, if any; kept alive by `owner`.
        var typed: Unmanaged<AnyObject>?
        /// A transient's registration (then also the `owner`).
        var transient: Unmanaged<Registration>?
    }

    private let entries: UnsafeMutablePointer<Entry>
    private let capacity: Int
    /// `64 - log2(capacity)`: a hash's top bits are its first entry (Fibonacci hashing).
    private let shift: UInt
    /// The next table in a `PublishedTable` list of replaced tables.
    var nextRetired: Unmanaged<ReadyTable>?

    /// A table of `slots`, each under its entry's key.
    init(_ slots: [Registry.Slot]) {
        var capacity = 4
        while capacity < slots.count * 2 { capacity *= 2 }
        self.capacity = capacity
        shift = UInt(UInt.bitWidth - capacity.trailingZeroBitCount)
        entries = .allocate(capacity: capacity)
        entries.initialize(
            repeating: Entry(typeID: 0, hash: 0, name: nil, small: (0, 0), owner: nil, typed: nil, transient: nil),
            count: capacity)
        for slot in slots {
            guard let published = slot.published else { continue }
            let key = slot.key
            let small = key.name.flatMap(Self.smallName) ?? (0, 0)
            let hash = Self.hash(key.typeID, key.name, small: small)
            var index = Int(truncatingIfNeeded: hash >> shift)
            while entries[index].typeID != 0 { index = (index + 1) & (capacity - 1) }
            entries[index] = Entry(
                typeID: UInt(bitPattern: key.typeID), hash: hash, name: key.name, small: small,
                owner: .passRetained(published.owner),
                typed: published.typed.map { .passUnretained($0) },
                transient: published.transient.map { .passUnretained($0) })
        }
    }

    deinit {
        for index in 0..<capacity { entries[index].owner?.release() }
        entries.deinitialize(count: capacity)
        entries.deallocate()
    }

    /// The number of entries the table has room for (twice what it holds, or more).
    var size: Int { capacity }

    /// The entry for `type` under `name`, valid while the table is; `nil` when there is none.
    /// A small name is compared by its two words, with no string operation at all; a larger
    /// one by `largeNameHash` (`largeNameHash(_:)`, worked out by the caller before it
    /// announced the table, so that its announcement lasts for the probe alone), then itself.
    @inline(__always)
    func entry(for type: ObjectIdentifier, name: String?, largeNameHash: UInt) -> UnsafeMutablePointer<Entry>? {
        let typeID = UInt(bitPattern: type)
        guard let name else {
            return probe(Self.hash(type, nil, small: (0, 0))) { $0.typeID == typeID && $0.name == nil }
        }
        if let small = Self.smallName(name) {
            return probe(Self.hash(type, name, small: small)) {
                $0.typeID == typeID && $0.small.0 == small.0 && $0.small.1 == small.1
            }
        }
        let hash = (UInt(bitPattern: type) ^ largeNameHash) &* Self.golden
        return probe(hash) { $0.typeID == typeID && $0.hash == hash && $0.name == name }
    }

    /// What `entry(for:name:largeNameHash:)` needs for a name that is not small: its hash
    /// (0 for none or a small name, which need none).
    @inline(__always)
    static func largeNameHash(_ name: String?) -> UInt {
        guard let name, smallName(name) == nil else { return 0 }
        return hash(name)
    }

    /// The first entry from `hash`'s place on that `matches`, or `nil` at an empty one.
    @inline(__always)
    private func probe(_ hash: UInt, _ matches: (borrowing Entry) -> Bool) -> UnsafeMutablePointer<Entry>? {
        var index = Int(truncatingIfNeeded: hash >> shift)
        while true {
            let entry = entries + index
            if matches(entry.pointee) { return entry }
            if entry.pointee.typeID == 0 { return nil }
            index = (index + 1) & (capacity - 1)
        }
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
