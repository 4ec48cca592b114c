/// The values one top-level resolve shares with its later requests (`.graph` values, and one
/// whose completion is running), each under the registration that made it; for both faces.
///
/// Keyed by the registration's identity, and each entry keeps its registration alive: a
/// registration replaced in the middle of the resolve would otherwise be freed, and a new
/// one allocated at its address would be handed the value that the old one made.
struct SharedValues<Value> {
    /// A value, and the registration that made it (kept for its identity).
    typealias Entry = (value: Value, madeBy: Registration)

    private var entries: [ObjectIdentifier: Entry] = [:]

    var isEmpty: Bool { entries.isEmpty }

    /// The value `registration` made earlier in the resolve, if any.
    func value(madeBy registration: Registration) -> Value? {
        entries[ObjectIdentifier(registration)]?.value
    }

    /// Shares `value` as what `registration` makes; returns the entry it replaces, which the
    /// caller releases outside any lock.
    mutating func share(_ value: Value, madeBy registration: Registration) -> Entry? {
        entries.updateValue((value, registration), forKey: ObjectIdentifier(registration))
    }

    /// Stops sharing `registration`'s value; returns its entry, which the caller releases
    /// outside any lock.
    mutating func stopSharing(_ registration: Registration) -> Entry? {
        entries.removeValue(forKey: ObjectIdentifier(registration))
    }
}
