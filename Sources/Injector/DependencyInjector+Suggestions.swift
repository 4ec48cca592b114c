extension DependencyInjector {
    /// What the caller of a failed resolve of `key` probably meant (walks every registration).
    func suggestions<T>(for key: DependencyKey, as type: T.Type) -> [Suggestion] {
        var candidates: [(key: DependencyKey, readyValue: Any?)] = []
        for injector in sequence(first: self, next: \.parent) {
            candidates += injector.registry.withLock { $0.entries }.map { ($0.key, $0.entry.readyValue) }
        }
        return Suggestion.find(for: key, as: type, among: candidates)
    }
}
