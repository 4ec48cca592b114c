/// One `decorate(_:name:…)` call: what wraps each value of its key that its injector, or a
/// descendant of it, makes (see `DependencyInjector.decoratedIfAny(_:madeFor:in:isCurrent:)`).
struct Decorator: Sendable {
    enum Body: Sendable {
        /// ``DependencyInjector/decorate(_:name:fileID:line:_:)``: runs on both faces.
        case sync(SyncDecorator)
        /// ``AsyncDependencyInjector/decorate(_:name:fileID:line:_:)``: only a value the actor
        /// face makes can be wrapped by it.
        case async(@Sendable (AsyncResolver, Any) async throws -> any Sendable)
    }

    let body: Body
    /// Where the `decorate` call was, and the module being installed, if any.
    let site: RegistrationSite
    /// The installation that added it, if any: a failed `install` takes it back.
    let installation: ObjectIdentifier?
}

/// A synchronous decorator of the values of one type: called with the value boxed in an `Any`
/// (`decorate`), or, by a factory run that has a value of that type in hand, as the
/// `TypedSyncDecorator` it is (`typed(_:)`), with no box and no cast back.
class SyncDecorator: @unchecked Sendable {
    // `@unchecked Sendable`: immutable, its stored properties and its one subclass's `let`s of
    // `Sendable` types; not final only for that subclass, as `Registration`.
    let decorate: @Sendable (DependencyInjector, Any) throws -> Any
    /// The type it decorates, which `typed(_:)` relies on to downcast.
    private let valueType: ObjectIdentifier

    fileprivate init(decorate: @escaping @Sendable (DependencyInjector, Any) throws -> Any, valueType: ObjectIdentifier)
    {
        self.decorate = decorate
        self.valueType = valueType
    }

    /// This decorator as the `TypedSyncDecorator` of a `T`, if it decorates `T`s.
    final func typed<T>(_ type: T.Type) -> TypedSyncDecorator<T>? {
        // Safe: only a `TypedSyncDecorator` is made (the initialiser is private to this file),
        // with its own value type, just checked to be `T`.
        valueType == ObjectIdentifier(type) ? unsafeDowncast(self, to: TypedSyncDecorator<T>.self) : nil
    }
}

/// The decorator of `Value`s that ``DependencyInjector/decorate(_:name:fileID:line:_:)`` was given.
final class TypedSyncDecorator<Value>: SyncDecorator, @unchecked Sendable {
    // `@unchecked Sendable`: immutable, as `SyncDecorator` says.
    let decorateValue: @Sendable (DependencyInjector, Value) throws -> Value

    init(_ decorate: @escaping @Sendable (DependencyInjector, Value) throws -> Value, key: DependencyKey) {
        decorateValue = decorate
        super.init(
            decorate: { injector, value in
                try decorate(injector, DependencyInjector.cast(value, to: Value.self, key: key))
            },
            valueType: ObjectIdentifier(Value.self))
    }
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
