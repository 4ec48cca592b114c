/// What a child's collection makes of its ancestors' elements (see
/// ``DependencyInjector/declareCollection(_:inheriting:fileID:line:)``).
///
/// ```swift
/// app.register(into: [any Middleware].self) { _ in Logging() }
///
/// let test = app.child()
/// test.declareCollection([any Middleware].self, inheriting: .replacing)
/// test.register(into: [any Middleware].self) { _ in RecordingMiddleware() }
/// try test.resolve([any Middleware].self)  // [RecordingMiddleware]: the app's are left out
/// ```
public enum CollectionInheritance: Sendable {
    /// The ancestors' elements come first, then this injector's (the default). In a map, this
    /// injector's entry replaces an ancestor's under the same key.
    case adding
    /// Only this injector's elements (and its descendants'): the ancestors' are left out.
    case replacing
}
