extension AsyncDependencyInjector {
    /// Freezes the registrations, as ``DependencyInjector/seal()`` does.
    public func seal() {
        core.seal()
    }

    /// Whether ``seal()`` was called, as ``DependencyInjector/isSealed`` says.
    public var isSealed: Bool {
        core.isSealed
    }
}
