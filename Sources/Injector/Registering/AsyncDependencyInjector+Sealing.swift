extension AsyncDependencyInjector {
    /// The actor face's ``DependencyInjector/seal()``; it behaves the same.
    public func seal() {
        core.seal()
    }

    /// The actor face's ``DependencyInjector/isSealed``; it behaves the same.
    public var isSealed: Bool {
        core.isSealed
    }
}
