/// A synchronous resolve that reached a registration with an async factory, which only
/// ``AsyncDependencyInjector`` can run. The actor face registers only async factories into its
/// own injectors, so this cannot happen through the public API; it exists so that a broken
/// invariant is a typed error rather than a crash.
struct RequiresAwait: Error, CustomStringConvertible {
    var description: String {
        "the factory is async: resolve it with `try await` from an AsyncDependencyInjector"
    }
}
