extension AsyncDependencyInjector {
    /// Freezes this injector's registrations: from now on, registering or unregistering in it
    /// is refused and the existing registrations stay as they are.
    ///
    /// ```swift
    /// try await services.install(PersistenceModule())
    /// await services.seal()
    /// try await services.install(RogueModule())  // throws InjectionError.sealed
    /// ```
    ///
    /// As with ``DependencyInjector/seal()``: `install` throws ``InjectionError/sealed(_:)``,
    /// a refused `register` or `unregister` is reported to the observer, singletons are still
    /// created, children are not sealed, and it cannot be undone.
    public func seal() {
        core.seal()
    }

    /// Whether ``seal()`` has been called on this injector.
    ///
    /// ```swift
    /// if await services.isSealed { … }
    /// ```
    public var isSealed: Bool {
        core.isSealed
    }
}
