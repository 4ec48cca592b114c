extension AsyncDependencyInjector {
    /// Freezes this injector's registrations; see ``DependencyInjector/seal()``.
    ///
    /// ```swift
    /// await services.seal()
    /// ```
    public func seal() {
        core.seal()
    }

    /// Whether ``seal()`` has been called on this injector; see ``DependencyInjector/isSealed``.
    ///
    /// ```swift
    /// if await services.isSealed { … }
    /// ```
    public var isSealed: Bool {
        core.isSealed
    }
}
