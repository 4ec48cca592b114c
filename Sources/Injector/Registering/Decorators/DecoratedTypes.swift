/// The filter of the types an injector has decorators for: 64 bits, two per type, kept by
/// each injector (`Registry.decoratedTypes`, published as `PublishedTable.decoratedTypes`), so that a factory run asks with one load
/// per injector of its chain whether it must look for decorators, and a chain that decorates
/// nothing (or not this type) pays nothing more.
///
/// Per injector, not per process: decorators elsewhere never fill it. A process-wide filter
/// read `Int` as decorated once a test run had decorated a few dozen types, and a chain of
/// `Int` factories in an injector with no decorator took the decorating path at every level,
/// with more stack: 161 of 250 levels on a 512 KB thread (see `DeepGraphTests`). Bits are never
/// cleared (a failed `install` takes its decorators back): a false "maybe" costs a look under
/// the locks of the injectors whose filter says so, which finds no decorator.
enum DecoratedTypes {
    /// The type's two bits. Fibonacci hashing: the product's top 6 bits pick one of 64, and
    /// the 6 below them the other.
    @inline(__always)
    static func bits(of key: DependencyKey) -> UInt64 {
        let product = UInt64(UInt(bitPattern: key.typeID)) &* 0x9E37_79B9_7F4A_7C15
        return 1 << (product >> 58) | 1 << ((product >> 52) & 63)
    }
}
