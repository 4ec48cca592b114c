/// A synchronous resolve that reached an async factory. Not reachable through the public API:
/// a broken invariant as a typed error rather than a crash.
struct RequiresAwait: Error, CustomStringConvertible {
    var description: String {
        "the factory is async: resolve it with `try await` from an AsyncDependencyInjector"
    }
}
