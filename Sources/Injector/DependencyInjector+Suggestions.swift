extension DependencyInjector {
    /// What the caller of a failed resolve of `key` probably meant. Runs only when a resolve
    /// has already failed, so it may walk every registration.
    func suggestions<T>(for key: DependencyKey, as type: T.Type) -> [Suggestion] {
        var otherNames: [String?] = []
        var conforming: [DependencyKey] = []
        var wider: [DependencyKey] = []
        var sameSimpleName: [DependencyKey] = []
        var seen: Set<DependencyKey> = []
        let simpleName = String(describing: key.type)

        var injector: DependencyInjector? = self
        while let current = injector {
            // A child's entry hides its ancestors' entry for the same key.
            for (entryKey, entry) in current.registry.withLock({ $0.entries }) where seen.insert(entryKey).inserted {
                if entryKey.typeID == key.typeID {
                    otherNames.append(entryKey.name)
                } else if let value = entry.readyValue, value is T {
                    // A value of exactly the requested type, kept under a protocol or superclass
                    // it conforms to, is the opposite mistake from a conforming registration.
                    if ObjectIdentifier(Swift.type(of: value)) == key.typeID {
                        wider.append(entryKey)
                    } else {
                        conforming.append(entryKey)
                    }
                } else if String(describing: entryKey.type) == simpleName {
                    sameSimpleName.append(entryKey)
                }
            }
            injector = current.parent
        }

        var suggestions: [Suggestion] = []
        if !otherNames.isEmpty {
            suggestions.append(.otherNames(otherNames.sorted { ($0 ?? "") < ($1 ?? "") }))
        }
        suggestions += conforming.sorted(by: Self.displayOrder).map(Suggestion.conformingRegistration)
        suggestions += wider.sorted(by: Self.displayOrder).map(Suggestion.registeredAsSupertype)
        suggestions += sameSimpleName.sorted(by: Self.displayOrder).map(Suggestion.sameSimpleName)
        return suggestions
    }

    private static func displayOrder(_ lhs: DependencyKey, _ rhs: DependencyKey) -> Bool {
        lhs.description < rhs.description
    }
}
