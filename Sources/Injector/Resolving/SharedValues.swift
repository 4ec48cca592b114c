/// The values one top-level resolve shares with its later requests (`.graph` values, and one
/// whose completion is running), each under the registration that made it and the injector
/// that built it; for both faces.
///
/// Keyed by the builder too: a graph value that a child built, with its overrides, is not the
/// one an ancestor's singleton factory, which builds with the ancestor's registrations, may
/// take (a child's override would leak into the singleton). Each entry keeps its registration
/// and injector alive: one replaced or released in the middle of the resolve would otherwise be
/// freed, and a new one allocated at its address would be handed the value the old one made.
struct SharedValues<Value> {
    /// A value, and the registration that made it and the injector that built it (kept for
    /// their identities).
    typealias Entry = (value: Value, madeBy: Registration, builtBy: DependencyInjector)

    /// A value's registration (its lineage: a version modified in place during the resolve is
    /// the same registration) and builder, by identity.
    struct Key: Hashable {
        let registration: ObjectIdentifier
        let injector: ObjectIdentifier

        init(_ registration: Registration, _ injector: DependencyInjector) {
            self.registration = registration.lineage
            self.injector = ObjectIdentifier(injector)
        }
    }

    private var entries = [Key: Entry]()

    var isEmpty: Bool { entries.isEmpty }

    /// The value `registration` made earlier in the resolve, built by `injector`, if any.
    func value(madeBy registration: Registration, builtBy injector: DependencyInjector) -> Value? {
        entries[Key(registration, injector)]?.value
    }

    /// Shares `value` as what `registration` makes when `injector` builds it; returns the
    /// entry it replaces, which the caller releases outside any lock.
    mutating func share(_ value: Value, madeBy registration: Registration, builtBy injector: DependencyInjector)
        -> Entry?
    {
        entries.updateValue((value, registration, injector), forKey: Key(registration, injector))
    }

    /// Stops sharing what `registration` made, built by `injector`; returns its entry, which
    /// the caller releases outside any lock.
    mutating func stopSharing(_ registration: Registration, builtBy injector: DependencyInjector) -> Entry? {
        entries.removeValue(forKey: Key(registration, injector))
    }
}
