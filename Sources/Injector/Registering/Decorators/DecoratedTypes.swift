import Synchronization

/// Which types have ever been decorated, in any injector of the process: one bit per type's
/// hash in a 64-bit word, so that every factory run asks in one load whether it must look for
/// decorators, and a process that decorates nothing (or not this type) pays nothing more.
/// A bit is never cleared: a false "maybe" costs one walk, which finds no decorator.
enum DecoratedTypes {
    /// Whether `key`'s type may have decorators somewhere.
    @inline(__always)
    static func mayBeDecorated(_ key: DependencyKey) -> Bool {
        if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
            return bits.load(ordering: .relaxed) & bit(of: key) != 0
        }
        return legacyBits.withLock { $0 } & bit(of: key) != 0
    }

    /// Notes that `key`'s type has a decorator, before the decorator is stored: a factory run
    /// that finds the decorator stored (under its injector's lock) has the bit too.
    static func note(_ key: DependencyKey) {
        if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
            bits.bitwiseOr(bit(of: key), ordering: .relaxed)
        } else {
            legacyBits.withLock { $0 |= bit(of: key) }
        }
    }

    @inline(__always)
    private static func bit(of key: DependencyKey) -> UInt64 {
        // Fibonacci hashing: the product's top 6 bits pick one of 64.
        1 << ((UInt64(UInt(bitPattern: key.typeID)) &* 0x9E37_79B9_7F4A_7C15) >> 58)
    }

    /// Before `Synchronization`, a lock guards the word.
    private static let legacyBits = Locked<UInt64>(0)
}

@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
extension DecoratedTypes {
    private static let bits = Atomic<UInt64>(0)
}
