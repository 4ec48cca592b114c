extension AsyncDependencyInjector {
    /// What the caller of a failed resolve of `key` probably meant, found as
    /// ``DependencyInjector`` finds it. Runs only when a resolve has already failed.
    func suggestions<T>(for key: DependencyKey, as type: T.Type) async -> [Suggestion] {
        var otherNames: [String?] = []
        var conforming: [DependencyKey] = []
        var sameSimpleName: [DependencyKey] = []
        var seen: Set<DependencyKey> = []
        let simpleName = String(describing: key.type)

        var injector: AsyncDependencyInjector? = self
        while let current = injector {
            // A child's entry hides its ancestors' entry for the same key.
            for (entryKey, readyValue) in await current.readyValues() where seen.insert(entryKey).inserted {
                if entryKey.typeID == key.typeID {
                    otherNames.append(entryKey.name)
                } else if let readyValue, readyValue is T {
                    conforming.append(entryKey)
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
        suggestions += sameSimpleName.sorted(by: Self.displayOrder).map(Suggestion.sameSimpleName)
        return suggestions
    }

    /// Every key this injector holds, with the value a resolve could return without running a
    /// factory.
    private func readyValues() -> [(key: DependencyKey, value: (any Sendable)?)] {
        entries.map { key, entry in
            switch entry {
            case .instance(let value): (key, value)
            case .factory(let registration, let cache): (key, cache.value(reloadedBy: registration))
            }
        }
    }

    private static func displayOrder(_ lhs: DependencyKey, _ rhs: DependencyKey) -> Bool {
        lhs.description < rhs.description
    }
}
