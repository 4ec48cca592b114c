extension DependencyInjector {
    /// What the caller of a failed resolve of `key` probably meant (walks every registration).
    func suggestions<T>(for key: DependencyKey, as type: T.Type) -> [Suggestion] {
        var candidates: [(key: DependencyKey, readyValue: Any?)] = []
        var injector: DependencyInjector? = self
        while let current = injector {
            candidates += current.registry.withLock { $0.entries }.map { ($0.key, $0.entry.readyValue) }
            injector = current.parent
        }
        return Suggestion.find(for: key, as: type, among: candidates)
    }
}
