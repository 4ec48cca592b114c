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

/// An injector's decorators by key, each key's in the order they were added: what its
/// registry holds (`Registry`), and what a `DecoratorList` publishes. A short list searched in
/// place, not a dictionary: an injector decorates a handful of keys, and hashing a key cost a
/// decorated resolve more than the rest of the lookup.
struct Decorators: Sendable {
    fileprivate private(set) var entries: [(key: DependencyKey, decorators: [Decorator])] = []

    /// The position of `key`'s decorators, if it has any.
    @inline(__always)
    func index(of key: DependencyKey) -> Int? {
        var index = entries.startIndex
        while index < entries.endIndex {
            if entries[index].key == key { return index }
            index += 1
        }
        return nil
    }

    /// The decorators of `key`, in the order they were added; `nil` when it has none.
    subscript(key: DependencyKey) -> [Decorator]? {
        index(of: key).map { entries[$0].decorators }
    }

    /// Stores `decorator` as the last of `key`'s.
    mutating func append(_ decorator: Decorator, for key: DependencyKey) {
        if let index = index(of: key) {
            entries[index].decorators.append(decorator)
        } else {
            entries.append((key, [decorator]))
        }
    }

    /// Takes out the decorators of `key` that `installation` added, and returns them.
    mutating func remove(of key: DependencyKey, addedBy installation: ObjectIdentifier) -> [Decorator] {
        guard let index = index(of: key) else { return [] }
        let all = entries[index].decorators
        let kept = all.filter { $0.installation != installation }
        if kept.isEmpty { entries.remove(at: index) } else { entries[index].decorators = kept }
        return all.filter { $0.installation == installation }
    }
}

/// An injector's decorators as its registry held them when a factory run first asked after
/// they last changed (see `PublishedTable.decoratorList`): read by factory runs with no lock
/// and no reference counted, which is why every list an injector publishes lives as long as
/// it does (a run may be applying one when a `decorate` call replaces it). It shares its
/// arrays with the registry until the registry changes; a new one is made only when a run
/// asks after a change, so an injector decorated at start-up publishes one.
final class DecoratorList: Sendable {
    let decorators: Decorators
    /// For each key of `decorators`, in their order: its decorators composed into one, which
    /// a factory run calls (see `SyncDecorator.then(_:key:)`), or where the first async one
    /// (the actor face's) was added, which no synchronous run can call.
    private let composed: [Composed]

    private enum Composed {
        case none
        case sync(SyncDecorator)
        case async(RegistrationSite)
    }

    /// What wraps the values of a key: its decorators composed into one (unretained: the list
    /// holds it), or the site of an async one among them; `none` when it has no decorator.
    enum Decoration {
        case none
        case sync(Unmanaged<SyncDecorator>)
        case async(RegistrationSite)
    }

    init(_ decorators: Decorators) {
        self.decorators = decorators
        composed = decorators.entries.map { entry in
            var composed: SyncDecorator?
            for decorator in entry.decorators {
                guard case .sync(let decorate) = decorator.body else { return .async(decorator.site) }
                composed = composed?.then(decorate, key: entry.key) ?? decorate
            }
            return composed.map(Composed.sync) ?? .none
        }
    }

    /// The decorators of `key`, composed into one, or the site of an async one.
    @inline(__always)
    func decoration(of key: DependencyKey) -> Decoration {
        guard let position = decorators.index(of: key) else { return .none }
        switch composed[position] {
        case .none: return .none
        case .sync(let decorator): return .sync(.passUnretained(decorator))
        case .async(let site): return .async(site)
        }
    }
}

/// A synchronous decorator of the values of one type: called with the value boxed in an `Any`
/// (`decorate`), or, by a factory run that has a value of that type in hand, as the
/// `TypedSyncDecorator` it is (`decorate(_:madeBy:key:)`), with no box and no cast back.
class SyncDecorator: @unchecked Sendable {
    // `@unchecked Sendable`: immutable, its stored properties and its one subclass's `let`s of
    // `Sendable` types; not final only for that subclass, as `Registration`.
    let decorate: @Sendable (DependencyInjector, Any) throws -> Any
    /// The type it decorates, which `decorate(_:madeBy:key:)` relies on to downcast.
    private let valueType: ObjectIdentifier

    fileprivate init(decorate: @escaping @Sendable (DependencyInjector, Any) throws -> Any, valueType: ObjectIdentifier)
    {
        self.decorate = decorate
        self.valueType = valueType
    }

    /// `value`, made by `maker` for `key`, decorated: with the value as it is when this
    /// decorates `Value`s (a `TypedSyncDecorator<Value>`), else boxed and cast back.
    @inline(__always)
    final func decorate<Value>(
        _ value: Value,
        madeBy maker: DependencyInjector,
        key: @autoclosure () -> DependencyKey
    ) throws -> Value {
        guard valueType == ObjectIdentifier(Value.self) else {
            return try decorateBoxed(value, madeBy: maker, key: key)
        }
        // Safe: only a `TypedSyncDecorator` is made (the initialiser is private to this file),
        // with its own value type, just checked to be `Value`.
        return try unsafeDowncast(self, to: TypedSyncDecorator<Value>.self).decorateValue(maker, value)
    }

    /// `decorate(_:madeBy:key:)` of a value of another type than this decorator's, boxed and
    /// cast back. Apart: the typed call inlined into a factory run stays a few instructions.
    @inline(never)
    private final func decorateBoxed<Value>(
        _ value: Value,
        madeBy maker: DependencyInjector,
        key: () -> DependencyKey
    ) throws -> Value {
        try DependencyInjector.cast(decorate(maker, value), to: Value.self, key: key())
    }

    /// One decorator that runs this one, then `outer` on what it made, for `key`'s values: a
    /// whole value only reaches `outer` (a wrapper that failed while this one built fails it,
    /// as between any two decorators). Every decorator is a `TypedSyncDecorator`, which
    /// composes them typed; this one boxes.
    func then(_ outer: SyncDecorator, key: DependencyKey) -> SyncDecorator {
        TypedSyncDecorator<Any>(
            { maker, value in
                let decorated = try self.decorate(maker, value)
                try ResolutionContext.current.throwCapturedFailure(building: decorated)
                return try outer.decorate(maker, decorated)
            }, key: key)
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

    /// `then` with the value as it is between the two.
    override func then(_ outer: SyncDecorator, key: DependencyKey) -> SyncDecorator {
        let inner = decorateValue
        return TypedSyncDecorator(
            { maker, value in
                let decorated = try inner(maker, value)
                try ResolutionContext.current.throwCapturedFailure(building: decorated)
                return try outer.decorate(decorated, madeBy: maker, key: key)
            }, key: key)
    }
}

/// The error of a value made by a synchronous factory that an async decorator (the actor
/// face's) would wrap: only the actor face's own factories can be awaited. The library's
/// refusal, not a throw of the user's code: its message says so (see `ExplainedFailure`).
struct AsyncDecoratorOnSynchronousValue: ExplainedFailure, CustomStringConvertible {
    let site: RegistrationSite

    var problem: String {
        "the decorator registered at \(site) is async (AsyncDependencyInjector.decorate), and this value is made "
            + "by a synchronous factory, which cannot await it"
    }

    var fix: String {
        "register the service with the AsyncDependencyInjector's async factory, or decorate it with "
            + "`synchronous.decorate`"
    }

    var description: String { "\(problem): \(fix)" }
}
