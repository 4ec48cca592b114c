/// A synchronous resolve that reached an async factory: an `@Inject` property of an object
/// that the actor face builds, or a resolve without `await`. The library's refusal, not the
/// user's factory's failure: its message says so (see `ExplainedFailure`).
struct RequiresAwait: ExplainedFailure, CustomStringConvertible {
    var problem: String {
        "its factory is async, and a synchronous resolve (an @Inject property, or a resolve without await) "
            + "cannot run it"
    }

    var fix: String {
        "resolve it with `try await` from the AsyncDependencyInjector, or pass it to the object's init "
            + "from an async factory"
    }

    var description: String { "\(problem): \(fix)" }
}
