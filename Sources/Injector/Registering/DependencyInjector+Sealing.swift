extension DependencyInjector {
    /// Freezes this injector's registrations: from now on, registering or unregistering in it
    /// is refused and the existing registrations stay as they are.
    ///
    /// ```swift
    /// try DependencyInjector.shared.install(AppModule())
    /// DependencyInjector.shared.seal()  // nothing can silently replace the auth service now
    ///
    /// DependencyInjector.shared.register(FakeAuth() as AuthService)  // refused; the real one stays
    /// try DependencyInjector.shared.install(RogueModule())            // throws InjectionError.sealed
    /// ```
    ///
    /// Into a sealed injector, `install` throws ``InjectionError/sealed(_:)``; `register` and
    /// `unregister` cannot throw, so they leave the registration intact and tell the observer.
    /// Singletons are still created, and children are not sealed: tests keep overriding
    /// through ``child()``, ``withOverrides(strict:allowing:_:operation:)`` and the
    /// `InjectorTesting` trait. Sealing cannot be undone.
    public func seal() {
        registry.withLock { $0.isSealed = true }
    }

    /// Whether ``seal()`` has been called on this injector.
    public var isSealed: Bool {
        registry.withLock { $0.isSealed }
    }
}
