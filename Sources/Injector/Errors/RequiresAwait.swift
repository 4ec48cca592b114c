/// A synchronous resolve that reached an async factory: a broken invariant, not a crash.
struct RequiresAwait: Error, CustomStringConvertible {
    var description: String {
        "the factory is async: resolve it with `try await` from an AsyncDependencyInjector"
    }
}
