/// A dependency resolved when the owner is initialised, held in a `let`: ``Inject`` for a
/// `final class …: Sendable` service, which may not have the `var` that a property wrapper
/// needs (its backing storage would be mutable).
///
/// ```swift
/// final class OrderHandler: Sendable {
///     let orders = Injected<any OrderRepository>()
///     let log = Injected<RequestLogger>(name: "orders")
///
///     func handle(_ order: Order) throws {
///         try orders().save(order)  // or `orders.value`
///         log().info("saved \(order.id)")
///     }
/// }
/// ```
///
/// It resolves as ``Inject`` does, and follows the same rules: from `injector:`, or from
/// ``DependencyInjector/current`` when the owner is created (while the actor face runs a
/// factory, that is the actor's own registry, so a server's services get its ready values and
/// synchronous factories; a dependency whose factory is `async` needs `await`: pass it to the
/// owner's `init` instead). When a factory builds the owner, or
/// ``DependencyInjector/make(_:)`` does, a failure fails that resolve, with the property in
/// the error's path. An owner made by hand keeps the typed error, which ``result`` gives;
/// reading ``value`` after a failure stops the program, as reading an `@Inject` does.
public struct Injected<Value: Sendable>: Sendable {
    @usableFromInline let inject: Inject<Value>

    /// Resolves `Value` (under `name`) from `injector`, or from ``DependencyInjector/current``
    /// when `injector` is `nil`; the rules are ``Inject/init(name:injector:fileID:filePath:line:function:)``'s.
    @inlinable
    public init(
        name: String? = nil,
        injector: DependencyInjector? = nil,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        function: StaticString = #function
    ) {
        inject = Inject(
            name: name, injector: injector, fileID: fileID, filePath: filePath, line: line, function: function)
    }

    /// The resolved value. Reading it after a failed resolution stops the program (see ``result``).
    @inlinable
    public var value: Value { inject.wrappedValue }

    /// The resolved value: `orders()` reads as a call to the dependency.
    @inlinable
    public func callAsFunction() -> Value { inject.wrappedValue }

    /// The outcome of the resolution: the value, or the typed error that says what is missing.
    @inlinable
    public var result: Result<Value, InjectionError> { inject.projectedValue }
}

extension Injected: FailureHolding {
    var heldFailure: WrapperFailure? { inject.heldFailure }
}
