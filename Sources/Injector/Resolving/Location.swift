/// What the walk for a key found, and where (see `DependencyInjector.locate(_:after:)`).
enum Location: ~Copyable {
    /// A value to return: a registered instance or a singleton already created, in its
    /// injector's table, whose lock is held until the value is copied out (or this is dropped).
    case ready(LockedSlot)
    /// A factory to run, the injector that holds it, and the one that keeps a singleton's
    /// value (the holder, or a descendant that keeps its own copies).
    case pending(Registration, heldBy: DependencyInjector, keptBy: DependencyInjector)
    /// No injector on the way holds the key.
    case absent
    /// A strict test scope on the way refused the registration above it, made at the site
    /// (see `TestScope`).
    case refused(DependencyKey, registeredAt: RegistrationSite)
}
