extension DependencyInjector {
    /// Which injector this is, for the message of a wrapper that searched it and failed: a
    /// reader who registered into another injector (the Quick Start's own, say, while the
    /// wrappers read `current`) sees at once that the two did not meet.
    ///
    /// "DependencyInjector.shared, with 12 registrations", or "a test scope (a child that
    /// keeps its own singletons, as withOverrides, .injecting and InjectorTestCase make) under
    /// DependencyInjector.shared, with 2 registrations of its own and 12 in its ancestors".
    var searchedDescription: String {
        let own = Self.registrations(registry.withLock(\.count))
        if self === Self.shared { return "DependencyInjector.shared, with \(own)" }
        guard let parent else { return "an injector of its own (not DependencyInjector.shared), with \(own)" }
        var inherited = 0
        var root = parent
        while true {
            inherited += root.registry.withLock(\.count)
            guard let next = root.parent else { break }
            root = next
        }
        let kind =
            if testScope?.isPreview == true {
                "a preview scope (previewScope(), whose registrations answer with their preview stand-ins)"
            } else if testScope != nil {
                "a test scope (a child that keeps its own singletons, as withOverrides, .injecting and "
                    + "InjectorTestCase make)"
            } else if opensScope {
                "an opened scope (openScope() or withScope, which keeps one value of each .scoped registration)"
            } else {
                "a child injector"
            }
        let under = root === Self.shared ? "DependencyInjector.shared" : "an injector of its own"
        return "\(kind) under \(under), with \(own) of its own and \(inherited) in its ancestors"
    }

    private static func registrations(_ count: Int) -> String {
        count == 1 ? "1 registration" : "\(count) registrations"
    }
}
