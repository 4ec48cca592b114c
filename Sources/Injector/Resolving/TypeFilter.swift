/// A filter of types in one word: 64 bits, two per type, only ever added to. Each injector
/// keeps two, published beside its table's word for reads without its lock (see
/// `PublishedTable`):
///
/// - the types its registry has held anything of (`Registry.heldTypes`): a resolve passes by an
///   injector that never held the type asked for, straight to its parent's table;
/// - the types it has decorators for (`Registry.decoratedTypes`): a factory run asks with one
///   load per injector of its chain whether it must look for decorators, so a chain that
///   decorates nothing (or not this type) pays nothing more.
///
/// Per injector, not per process: what other injectors do never fills it. A process-wide
/// filter of decorated types read `Int` as decorated once a test run had decorated a few dozen
/// types, and a chain of `Int` factories took the decorating path at every level, with more
/// stack (see `DeepGraphTests`). Bits are never cleared: a false "maybe" only sends a resolve
/// the long way, which finds nothing there.
enum TypeFilter {
    /// The type's two bits. Fibonacci hashing: the product's top 6 bits pick one of 64, and
    /// the 6 below them the other.
    @inline(__always)
    static func bits(of type: ObjectIdentifier) -> UInt64 {
        let product = UInt64(UInt(bitPattern: type)) &* 0x9E37_79B9_7F4A_7C15
        return 1 << (product >> 58) | 1 << ((product >> 52) & 63)
    }

    /// Whether `filter` may hold the type of `bits` (both set); `false` means it never did.
    @inline(__always)
    static func mayHold(_ bits: UInt64, in filter: UInt64) -> Bool {
        filter & bits == bits
    }
}
