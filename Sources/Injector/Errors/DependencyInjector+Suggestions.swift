extension DependencyInjector {
    /// What the caller of a failed resolve of `key` probably meant (see `Suggestion.find`);
    /// `path`, the resolutions that asked for it, is not what was meant.
    ///
    /// Each registry on the way up is copied under its lock (copy-on-write: the copy shares its
    /// storage, so that costs a few retains) and read after the unlock.
    func suggestions<T>(for key: DependencyKey, as type: T.Type, after path: [DependencyKey] = []) -> [Suggestion] {
        let registries = sequence(first: self, next: \.parent).map { injector in
            injector.registry.withLock { registry in
                registry.refreshSimpleNames()
                return registry
            }
        }
        return Suggestion.find(for: key, as: type, in: registries, after: path)
    }
}
