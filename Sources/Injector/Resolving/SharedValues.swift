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

    private struct Key: Hashable {
        let registration: ObjectIdentifier
        let injector: ObjectIdentifier

        init(_ registration: Registration, _ injector: DependencyInjector) {
            self.registration = ObjectIdentifier(registration)
            self.injector = ObjectIdentifier(injector)
        }
    }

    private var entries = [Key: Entry]()
    /// The `.graph` values being made on the actor face, where the resolve's child tasks may
    /// ask for one at once: the first makes it, the others await it (see `claim`).
    private var creations = [Key: AsyncSingletonCreation]()

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

    /// What a request of `registration`'s value, built by `injector`, finds: the value shared
    /// already, the creation of it another task runs, or (claimed now) one for this task to run,
    /// which the caller ends with `endCreation` before it finishes it.
    mutating func claim(_ registration: Registration, builtBy injector: DependencyInjector) -> Claim {
        let key = Key(registration, injector)
        if let entry = entries[key] { return .shared(entry.value) }
        if let running = creations[key] { return .running(running) }
        let creation = AsyncSingletonCreation(of: registration)
        creations[key] = creation
        return .claimed(creation)
    }

    /// What `claim` finds.
    enum Claim {
        case shared(Value)
        case running(AsyncSingletonCreation)
        case claimed(AsyncSingletonCreation)
    }

    /// Whether `registration`'s value, built by `injector`, is shared or being made.
    func hasValueOrCreation(madeBy registration: Registration, builtBy injector: DependencyInjector) -> Bool {
        let key = Key(registration, injector)
        return entries[key] != nil || creations[key] != nil
    }

    /// Forgets `creation` of `registration`'s value, built by `injector`, which has ended: a
    /// later request finds its value shared, or (it failed) claims a creation of its own.
    mutating func endCreation(
        _ creation: AsyncSingletonCreation, of registration: Registration, builtBy injector: DependencyInjector
    ) -> AsyncSingletonCreation? {
        let key = Key(registration, injector)
        return creations[key] === creation ? creations.removeValue(forKey: key) : nil
    }

    /// Stops sharing what `registration` made, built by `injector`; returns its entry, which
    /// the caller releases outside any lock.
    mutating func stopSharing(_ registration: Registration, builtBy injector: DependencyInjector) -> Entry? {
        entries.removeValue(forKey: Key(registration, injector))
    }
}
