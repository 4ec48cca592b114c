extension Suggestion {
    /// What the caller of a failed resolve of `key` (as a `T`) probably meant, among
    /// `candidates` (each key with its ready value, if any; a child's before its ancestors').
    static func find<T>(
        for key: DependencyKey,
        as type: T.Type,
        among candidates: [(key: DependencyKey, readyValue: Any?)]
    ) -> [Suggestion] {
        var otherNames: [String?] = []
        var conforming: [DependencyKey] = []
        var wider: [DependencyKey] = []
        var sameSimpleName: [DependencyKey] = []
        var seen: Set<DependencyKey> = []
        let simpleName = String(describing: key.type)

        for (candidate, readyValue) in candidates where seen.insert(candidate).inserted {
            if candidate.typeID == key.typeID {
                otherNames.append(candidate.name)
            } else if let value = readyValue, value is T {
                // Exactly the requested type, kept under a protocol or superclass it conforms to.
                if ObjectIdentifier(Swift.type(of: value)) == key.typeID {
                    wider.append(candidate)
                } else {
                    conforming.append(candidate)
                }
            } else if String(describing: candidate.type) == simpleName {
                sameSimpleName.append(candidate)
            }
        }

        let displayOrder = { (lhs: DependencyKey, rhs: DependencyKey) in lhs.description < rhs.description }
        var suggestions: [Suggestion] = []
        if !otherNames.isEmpty {
            suggestions.append(.otherNames(otherNames.sorted { ($0 ?? "") < ($1 ?? "") }))
        }
        suggestions += conforming.sorted(by: displayOrder).map(Suggestion.conformingRegistration)
        suggestions += wider.sorted(by: displayOrder).map(Suggestion.registeredAsSupertype)
        suggestions += sameSimpleName.sorted(by: displayOrder).map(Suggestion.sameSimpleName)
        return suggestions
    }
}
