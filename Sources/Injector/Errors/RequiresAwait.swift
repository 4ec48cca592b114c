/// A synchronous resolve that reached an async factory: an `@Inject` property of an object
/// that the actor face builds, or a resolve without `await`.
struct RequiresAwait: Error, CustomStringConvertible {
    var description: String {
        "the factory is async, and a synchronous resolve (an @Inject property, or a resolve without await) "
            + "cannot run it: resolve it with `try await` from the AsyncDependencyInjector, or pass it to "
            + "the object's init from an async factory"
    }
}
