/// One `decorate(_:name:…)` call: what wraps each value of its key that its injector, or a
/// descendant of it, makes (see `DependencyInjector.decorated(_:madeFor:in:)`).
struct Decorator: Sendable {
    enum Body: Sendable {
        /// ``DependencyInjector/decorate(_:name:fileID:line:_:)``: runs on both faces.
        case sync(@Sendable (DependencyInjector, Any) throws -> Any)
        /// ``AsyncDependencyInjector/decorate(_:name:fileID:line:_:)``: only a value the actor
        /// face makes can be wrapped by it.
        case async(@Sendable (AsyncDependencyInjector, Any) async throws -> any Sendable)
    }

    let body: Body
    /// Where the `decorate` call was, and the module being installed, if any.
    let site: RegistrationSite
    /// The installation that added it, if any: a failed `install` takes it back.
    let installation: ObjectIdentifier?
}

/// The error of a value made by a synchronous factory that an async decorator (the actor
/// face's) would wrap: only the actor face's own factories can be awaited.
struct AsyncDecoratorOnSynchronousValue: Error, CustomStringConvertible {
    let site: RegistrationSite

    var description: String {
        "the decorator registered at \(site) is async (AsyncDependencyInjector.decorate), and this value is made "
            + "by a synchronous factory, which cannot await it: register the service with the "
            + "AsyncDependencyInjector's async factory, or decorate it with `synchronous.decorate`"
    }
}
