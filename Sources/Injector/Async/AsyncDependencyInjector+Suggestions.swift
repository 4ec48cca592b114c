extension AsyncDependencyInjector {
    /// What the caller of a failed resolve of `key` probably meant, found as
    /// ``DependencyInjector`` finds it. Runs only when a resolve has already failed.
    func suggestions<T>(for key: DependencyKey, as type: T.Type) async -> [Suggestion] {
        var candidates: [(key: DependencyKey, readyValue: Any?)] = []
        var injector: AsyncDependencyInjector? = self
        while let current = injector {
            candidates += await current.readyValues().map { ($0.key, $0.readyValue as Any?) }
            injector = current.parent
        }
        return Suggestion.find(for: key, as: type, among: candidates)
    }

    /// Every key this injector holds, with the value a resolve could return without running a
    /// factory.
    private func readyValues() -> [(key: DependencyKey, readyValue: (any Sendable)?)] {
        entries.map { key, entry in
            switch entry {
            case .instance(let value): (key, value)
            case .factory(let registration, let cache): (key, cache.value(reloadedBy: registration))
            }
        }
    }
}
