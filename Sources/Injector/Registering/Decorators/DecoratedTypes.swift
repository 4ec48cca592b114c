import Synchronization

/// Which types have ever been decorated, in any injector of the process: a 64-bit Bloom
/// filter (two bits per type), so that every factory run asks in one load whether it must look
/// for decorators, and a process that decorates nothing (or not this type) pays nothing more.
/// Bits are never cleared. A false "maybe" (about 1 type in 1,000 when one type is decorated)
/// costs a walk of the injector's ancestors, which finds no decorator.
enum DecoratedTypes {
    /// Whether `key`'s type may have decorators somewhere.
    @inline(__always)
    static func mayBeDecorated(_ key: DependencyKey) -> Bool {
        if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
            let mask = bits(of: key)
            return word.load(ordering: .relaxed) & mask == mask
        }
        let mask = bits(of: key)
        return legacyWord.withLock { $0 } & mask == mask
    }

    /// Notes that `key`'s type has a decorator, before the decorator is stored: a factory run
    /// that finds the decorator stored (under its injector's lock) has the bit too.
    static func note(_ key: DependencyKey) {
        if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
            word.bitwiseOr(bits(of: key), ordering: .relaxed)
        } else {
            legacyWord.withLock { $0 |= bits(of: key) }
        }
    }

    /// The type's two bits. Fibonacci hashing: the product's top 6 bits pick one of 64, and
    /// the 6 below them the other.
    @inline(__always)
    private static func bits(of key: DependencyKey) -> UInt64 {
        let product = UInt64(UInt(bitPattern: key.typeID)) &* 0x9E37_79B9_7F4A_7C15
        return 1 << (product >> 58) | 1 << ((product >> 52) & 63)
    }

    /// Before `Synchronization`, a lock guards the word.
    private static let legacyWord = Locked<UInt64>(0)
}

@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
extension DecoratedTypes {
    private static let word = Atomic<UInt64>(0)
}
