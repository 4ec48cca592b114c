/// How far one name is from another: the number of characters added, removed, replaced, or
/// swapped with their neighbour (optimal string alignment), counted in UTF-8 code units.
///
/// One instance ranks many names against one target, reusing its rows, so a comparison
/// allocates nothing (a native string's bytes are read in place).
struct EditDistance {
    private let target: [UInt8]
    // Three rows of the table: two back (for a swap), one back, and the one being filled.
    private var older: [Int]
    private var previous: [Int]
    private var current: [Int]

    init(to target: String) {
        self.target = Array(target.utf8)
        older = Array(repeating: 0, count: self.target.count + 1)
        previous = older
        current = older
    }

    /// The distance from `name` to the target, or `nil` when it is more than `limit`.
    mutating func callAsFunction(_ name: String, limit: Int) -> Int? {
        if let distance = name.utf8.withContiguousStorageIfAvailable({ distance($0, limit: limit) }) {
            return distance
        }
        return distance(Array(name.utf8), limit: limit)
    }

    private mutating func distance<Source: RandomAccessCollection<UInt8>>(_ source: Source, limit: Int) -> Int?
    where Source.Index == Int {
        let (m, n) = (source.count, target.count)
        guard abs(m - n) <= limit else { return nil }  // each added or removed character counts one
        guard m > 0, n > 0 else { return Swift.max(m, n) }
        for j in 0...n { previous[j] = j }
        for i in 1...m {
            current[0] = i
            var smallest = i
            for j in 1...n {
                let cost = source[i - 1] == target[j - 1] ? 0 : 1
                var best = Swift.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, source[i - 1] == target[j - 2], source[i - 2] == target[j - 1] {
                    best = Swift.min(best, older[j - 2] + 1)
                }
                current[j] = best
                smallest = Swift.min(smallest, best)
            }
            // Every later row is at least this row's smallest entry.
            if smallest > limit { return nil }
            swap(&older, &previous)
            swap(&previous, &current)
        }
        let distance = previous[n]
        return distance <= limit ? distance : nil
    }
}
