import Injector

// Helpers for the stress suites. Every bound here is a fixed number of operations, not a
// duration, so the suites take the same work on a fast and a slow (TSan) build.

/// An object whose identity the tests check.
final class Probe: Sendable {
    let id: Int
    init(id: Int = 0) { self.id = id }
}

/// A small deterministic generator (SplitMix64), so a failing fuzz sequence can be replayed
/// from its printed seed.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
