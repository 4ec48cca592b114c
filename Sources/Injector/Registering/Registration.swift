/// One `register(_:name:scope:fileID:line:factory:)` call: the factory and its scope.
///
/// Its identity matters: a cached singleton is kept only while its registration is still the
/// one stored under its key, and cycles are found per registration (so a child's override
/// that decorates its parent's registration of the same key is no cycle).
///
/// A plain factory, the common kind, lives in the same object: its registration is a
/// `TypedRegistration`, so that registering one allocates one object.
@usableFromInline
class Registration: @unchecked Sendable {
    // `@unchecked Sendable`: immutable. Every stored property, here and in
    // `TypedRegistration` (the one subclass), is a `let` of a `Sendable` type; the class is
    // not final only for that subclass, which a checked conformance does not allow.
    let key: DependencyKey
    let scope: Scope
    let factory: Factory
    /// Where the `register` call was, and the module being installed, if any.
    let site: RegistrationSite
    /// What few registrations carry (see `Rare`); `nil` for one that carries none of it.
    fileprivate let rare: Rare?
    /// Whether later requests in the same resolve share each value it makes: a `.graph`
    /// value, or one whose completion may resolve what refers back to it.
    let sharesValues: Bool
    /// `scope == .transient`, stored: the resolve's hot path asks, and a `Scope` is compared
    /// by its payload-carrying cases otherwise.
    let isTransient: Bool
    /// `scope == .scoped`, stored for the same reason: kept by the nearest opened scope.
    /// Inlinable: the actor face's resolve asks it of an async factory found published.
    @usableFromInline let isScoped: Bool
    /// Whether the injector keeps what its factory makes: its scope says so, or its argument
    /// cache does. Stored: a scoped resolve's captive check reads it for every running factory.
    let isKept: Bool
    /// Whether what the injector keeps for it outlives opened scopes, so that a value it asks
    /// for that is ``Scope/scoped`` is a captive (see `DependencyInjector.checkScoped`).
    /// Stored: a scoped resolve inside another kept value's factory asks, and a `Scope` is
    /// copied to be asked otherwise.
    let isKeptPastOpenedScopes: Bool
    /// Whether a published table hands out this registration's factory, to be run by the
    /// resolving injector as the locked path would: a transient or a `.scoped` registration
    /// that needs only the injector and shares nothing with the resolve (see `PublishedTable`;
    /// an opened scope below finds a scoped one there, see `DependencyInjector.scopedValue(found:as:key:)`).
    /// An async one is run by the actor face (`AsyncDependencyInjector.resolvePublished(_:name:found:in:)`).
    let isPublishedFactory: Bool
    /// Whether its factory is async (and takes no run-time arguments): run by the actor face.
    @usableFromInline let isAsyncFactory: Bool
    /// The type a `.plain` factory makes; `nil` for other factories.
    let plainValueType: ObjectIdentifier?
    /// The identity of the first version, when this one modifies it in place (see `lineage`,
    /// `Rare.origin`); `nil` for one registered as itself. Stored:
    /// `lineage` is read on every scoped resolve, and reading it through the origin retained
    /// and released the origin each time.
    private let lineageID: ObjectIdentifier?
    /// How many times the registration was modified in place before this one: 0 for one
    /// registered as itself. Of two versions of one lineage, the later says how its values are closed.
    let revision: Int

    /// What a registration carries besides its key, scope, factory and site, which most
    /// carry none of: in one object of its own, allocated only for those that carry some, so
    /// that registering (and releasing) a plain factory initialises and destroys none of it.
    fileprivate final class Rare: Sendable {
        let extras: Extras
        let forwardedTo: DependencyKey?
        let caching: ArgumentCaching?
        /// The registration this one modifies in place (`Registered.teardown`, `inTests`, …;
        /// see `modified(_:)`), the first of them, which lives as long as any later version.
        let origin: Registration?

        /// What carries these, `nil` when they are all empty (asked before the object is made:
        /// a failable class initialiser allocates before its first statement).
        static func carrying(
            _ extras: Extras, forwardedTo: DependencyKey?, caching: ArgumentCaching?, origin: Registration?
        ) -> Rare? {
            guard !extras.isEmpty || forwardedTo != nil || caching != nil || origin != nil else { return nil }
            return Rare(extras: extras, forwardedTo: forwardedTo, caching: caching, origin: origin)
        }

        private init(extras: Extras, forwardedTo: DependencyKey?, caching: ArgumentCaching?, origin: Registration?) {
            self.extras = extras
            self.forwardedTo = forwardedTo
            self.caching = caching
            self.origin = origin
        }
    }

    /// What runs on each value once the factory has made it (`Registered.initCompleted`).
    final var completion: Completion? { rare?.extras.completion }
    /// The key whose registration this one forwards to (``Registered/implements(_:)``).
    final var forwardedTo: DependencyKey? { rare?.forwardedTo }
    /// What a test scope below its injector makes of it (see `TestScope`); `nil`: a strict
    /// scope refuses it.
    final var inTests: InTests? { rare?.extras.inTests }
    /// What a preview scope below its injector uses in its place (``Registered/inPreviews(fileID:line:_:)``):
    /// a registration of the same key and scope; `nil`: it is used as it is.
    final var inPreviews: Registration? { rare?.extras.inPreviews }
    /// What closes each value the injector keeps for it (``Registered/teardown(_:)``).
    final var teardown: Teardown? { rare?.extras.teardown }
    /// How a factory that takes run-time arguments keeps its values, one per argument tuple
    /// (`register(_:caching:…)`, a transient whose factory keeps them); `nil` for the rest.
    final var caching: ArgumentCaching? { rare?.caching }
    /// Whether its factory or completion runs only on the main actor (`DependencyInjector.mainActor`,
    /// `initCompleted(mainActor:)`, the `mainActor:` stand-ins), which the sync face runs in
    /// place and the actor face awaits there.
    final var runsOnMainActor: Bool { rare?.extras.runsOnMainActor ?? false }

    /// What every version of the registration shares (`.teardown`, `.initCompleted`,
    /// `.inTests`, … attached after `register` returned): a value made by one is the value of
    /// all (made before or while a modifier was attached, it stays the one value of its scope,
    /// as the registry's singleton does), so a kept value, a creation's rendezvous and "is it
    /// still stored" go by it, not by one version's identity. The first version lives as long
    /// as any later one (`origin`).
    final var lineage: ObjectIdentifier {
        lineageID ?? ObjectIdentifier(self)
    }

    /// Whether `self` and `other` are one registration, one of them modified in place.
    final func isModification(of other: Registration) -> Bool {
        lineage == other.lineage
    }

    /// Whether ``Registered/allowedInTests()`` lets it past a strict test scope's refusal.
    final var isAllowedInTests: Bool {
        if case .allowed? = inTests { return true }
        return false
    }

    /// What a test scope makes of a registration above it.
    enum InTests: Sendable {
        /// ``Registered/allowedInTests()``: used in strict scopes too (a preview around the
        /// test still stands in for it).
        case allowed
        /// ``Registered/inTests(_:)``: the double, of the same key and scope, is used instead.
        case double(Registration)
    }

    /// A hook that completes a value after its factory made it: property and method injection.
    enum Completion: Sendable {
        case sync(@Sendable (DependencyInjector, Any) throws -> Void)
        case async(@Sendable (AsyncResolver, Any) async throws -> Void)

        /// This hook, then `next`: an asynchronous hook if either is (the actor face's, which
        /// hands a synchronous one its registry).
        func then(_ next: Completion) -> Completion {
            switch (self, next) {
            case (.sync(let first), .sync(let second)):
                return .sync { injector, value in
                    try first(injector, value)
                    try second(injector, value)
                }
            default:
                return .async { r, value in
                    try await self.run(in: r, on: value)
                    try await next.run(in: r, on: value)
                }
            }
        }

        private func run(in r: AsyncResolver, on value: Any) async throws {
            switch self {
            case .sync(let complete): try complete(r.synchronous, value)
            case .async(let complete): try await complete(r, value)
            }
        }
    }

    /// What closes a value when the injector that keeps it lets it go (see `Teardowns`).
    enum Teardown: Sendable {
        case sync(@Sendable (Any) throws -> Void)
        /// Registered with the actor face, whose `close()` awaits it.
        case async(any AsyncTearingDown)
        /// Runs on the main actor (`teardown(mainActor:)`): in place in a close on the main
        /// queue, as a synchronous one; elsewhere awaited there, as an asynchronous one.
        case mainActor(@MainActor @Sendable (Any) throws -> Void)
    }

    /// What a registration carries besides its factory, changed together by `modified(_:)`.
    struct Extras: Sendable {
        var completion: Completion?
        var inTests: InTests?
        var inPreviews: Registration?
        var teardown: Teardown?
        var runsOnMainActor = false

        /// Whether it carries nothing.
        var isEmpty: Bool {
            completion == nil && inTests == nil && inPreviews == nil && teardown == nil && !runsOnMainActor
        }

        /// Sets the teardown, of the registration and of the stand-ins that make its values in
        /// its place (a test double, a preview stand-in), whichever was added first.
        mutating func setTeardown(_ teardown: Teardown) {
            self.teardown = teardown
            if case .double(let double)? = inTests { inTests = .double(double.modified { $0.teardown = teardown }) }
            inPreviews = inPreviews?.modified { $0.teardown = teardown }
        }

        /// Sets the test double, closed by the registration's teardown, if it has one.
        mutating func setDouble(_ double: Registration) {
            inTests = .double(teardown.map { teardown in double.modified { $0.teardown = teardown } } ?? double)
        }

        /// Sets the preview stand-in, closed by the registration's teardown, if it has one.
        mutating func setPreview(_ standIn: Registration) {
            inPreviews = teardown.map { teardown in standIn.modified { $0.teardown = teardown } } ?? standIn
        }
    }

    /// How the registration builds its value.
    enum Factory: Sendable {
        /// `register(_:name:scope:fileID:line:factory:)`: needs only the injector. The registration is a
        /// `TypedRegistration`, which holds it.
        case plain
        /// A factory that takes arguments of `argumentTypes`, as one `(First, (Rest...))`.
        case withArguments(argumentTypes: [any Any.Type], tupleType: ObjectIdentifier, make: ArgumentsFactory)
        /// ``AsyncDependencyInjector/register(_:name:scope:fileID:line:factory:)``: only the actor runs it.
        case async(any AsyncMaking)

        /// `make`, with the type it makes. Kept in a conformance, not converted: the conversion's
        /// reabstraction thunk cost each run a frame more (a buffer for its `T`).
        static func async<T: Sendable>(
            _ make: @escaping @Sendable (AsyncResolver) async throws -> T
        ) -> Self {
            .async(AsyncMaker(body: make))
        }
    }

    /// The factory of a `.withArguments` registration, given the arguments as one value.
    enum ArgumentsFactory: Sendable {
        case sync(@Sendable (DependencyInjector, Any) throws -> Any)
        /// Registered with the actor face, which alone can run it.
        case async(any AsyncMaking)

        /// `make`, with the type it makes; kept as `Factory.async(_:)` keeps its own.
        static func async<T: Sendable>(
            _ make: @escaping @Sendable (AsyncResolver, Any) async throws -> T
        ) -> Self {
            .async(AsyncArgumentsMaker(body: make))
        }
    }

    /// A registration of `factory`, which is not `.plain`: that is `TypedRegistration`'s.
    /// (Given one, it would have no `plainValueType`, so no resolve takes it for a typed one;
    /// running it would fail with an error.)
    convenience init(
        key: DependencyKey,
        scope: Scope,
        factory: Factory,
        site: RegistrationSite,
        completion: Completion? = nil,
        forwardedTo: DependencyKey? = nil,
        inTests: InTests? = nil,
        inPreviews: Registration? = nil,
        teardown: Teardown? = nil,
        caching: ArgumentCaching? = nil
    ) {
        self.init(
            key: key, scope: scope, factory: factory, site: site, plainValueType: nil,
            rare: Rare.carrying(
                Extras(completion: completion, inTests: inTests, inPreviews: inPreviews, teardown: teardown),
                forwardedTo: forwardedTo, caching: caching, origin: nil))
    }

    /// Private to this file, so that only `TypedRegistration` gives a `plainValueType`, which
    /// `typed(making:)` relies on to downcast. `rare`: what it carries besides (`nil` for a
    /// plain registration, which builds no `Extras` to find that out); `modified`: the version
    /// it modifies in place, if any.
    fileprivate init(
        key: DependencyKey,
        scope: Scope,
        factory: Factory,
        site: RegistrationSite,
        plainValueType: ObjectIdentifier?,
        rare: Rare?,
        modifying modified: Registration? = nil
    ) {
        lineageID = modified.map(\.lineage)
        revision = modified.map { $0.revision + 1 } ?? 0
        self.rare = rare
        let completion = rare?.extras.completion
        let caching = rare?.caching
        self.plainValueType = plainValueType
        self.key = key
        // A value type cannot be held weakly: registered `.weak`, it is a transient, built where
        // a transient is (in an opened scope, say, whose values it may then ask for).
        let scope = scope == .weak && !Registration.mayBeHeldWeakly(key.type) ? .transient : scope
        self.scope = scope
        self.factory = factory
        self.site = site
        sharesValues = completion != nil || scope == .graph
        isTransient = scope == .transient
        isScoped = scope == .scoped
        isKept = scope.isKept || caching != nil
        isKeptPastOpenedScopes = scope.outlivesOpenedScopes || caching != nil
        switch factory {
        case .plain:
            isAsyncFactory = false
            isPublishedFactory = (isTransient || isScoped) && !sharesValues
        case .async:
            isAsyncFactory = true
            isPublishedFactory = (isTransient || isScoped) && !sharesValues
        case .withArguments:
            isAsyncFactory = false
            isPublishedFactory = false
        }
    }

    /// Whether a value registered as `type` may be a class instance, which a `.weak`
    /// registration holds weakly: a class, or an existential, `Any` or `AnyObject`, whose values
    /// may be one.
    /// Asked only of `.weak` registrations (telling an existential costs a string).
    private static func mayBeHeldWeakly(_ type: any Any.Type) -> Bool {
        type is AnyObject.Type || type == Any.self || type == AnyObject.self || DependencyKey.isExistential(type)
    }

    /// Whether its factory applies the decorators itself, before the value is kept (a factory
    /// that caches by argument), so that a run does not apply them again.
    final var decoratesOwnValues: Bool { caching != nil }

    /// The lifetime of the values the injector keeps for it, as a captive dependency names it:
    /// its scope's, or its argument cache's (see `ArgumentCaching.lifetime`).
    final var keptLifetime: Scope { caching?.lifetime ?? scope }

    /// What the registration carries besides its factory.
    final var extras: Extras { rare?.extras ?? Extras() }

    /// This registration with its extras (completion, test double, teardown) as `change` makes them.
    final func modified(_ change: (inout Extras) -> Void) -> Registration {
        var extras = extras
        change(&extras)
        return modified(extras)
    }

    /// This registration with `extras`.
    func modified(_ extras: Extras) -> Registration {
        Registration(
            key: key, scope: scope, factory: factory, site: site, plainValueType: nil, rare: rare(with: extras),
            modifying: self)
    }

    /// What a version of this registration modified in place to carry `extras` carries.
    fileprivate final func rare(with extras: Extras) -> Rare? {
        Rare.carrying(extras, forwardedTo: forwardedTo, caching: caching, origin: rare?.origin ?? self)
    }

    /// Whether `self` is (a version of) `stored`, the registration stored under its key, or
    /// its test double or preview stand-in (never stored: a scope below finds them through `stored`).
    final func isStored(as stored: Registration) -> Bool {
        if stored.lineage == lineage || stored.inPreviews.map({ $0.lineage == lineage }) == true { return true }
        guard case .double(let double)? = stored.inTests else { return false }
        return double.lineage == lineage
    }

    /// Whether `self` is the preview stand-in of `registration`.
    final func isPreviewStandIn(of registration: Registration) -> Bool {
        registration.inPreviews?.lineage == lineage
    }

    /// Runs the `.plain` factory, its value boxed for the paths that keep or pass values
    /// untyped. `TypedRegistration` overrides it; no other registration has a `.plain` one.
    func makeAny(with injector: DependencyInjector) throws -> Any {
        throw NoPlainFactory()
    }

    /// Runs the factory with the `arguments` of `resolve(_:name:arguments:_:)`, if it takes any.
    @inline(__always)
    final func build(with injector: DependencyInjector, arguments: Any) throws -> Any {
        switch factory {
        case .plain: try makeAny(with: injector)
        case .withArguments(_, _, .sync(let make)): try make(injector, arguments)
        case .async: try forwardedValue(with: injector)
        case .withArguments(_, _, .async): throw RequiresAwait()
        }
    }

    /// What the sync face makes of an async factory: nothing, but for a forward
    /// (``Registered/implements(_:)``) of the actor face's registration, whose target's value
    /// the sync face may have (a singleton made already), checked as the actor face checks it.
    /// Where the target's factory is to be awaited, so is the forward's.
    private final func forwardedValue(with injector: DependencyInjector) throws -> Any {
        guard let target = forwardedTo else { throw RequiresAwait() }
        let value: Any?
        do {
            value = try injector.value(for: target, observed: true)
        } catch .factoryFailed(target, _, let underlying) where underlying is RequiresAwait {
            throw RequiresAwait()
        }
        guard let value else { throw Self.missing(target) }
        guard Self.value(value, is: key.type) else { throw Self.notImplemented(key, by: target) }
        return value
    }

    /// The error for a forward `key` whose target's value is not of its type.
    static func notImplemented(_ key: DependencyKey, by target: DependencyKey) -> InjectionError {
        .notImplemented(key, path: DependencyInjector.runningPath(endingAt: key), implementation: target)
    }

    /// The error for a forward whose target is no longer registered.
    static func missing(_ target: DependencyKey) -> InjectionError {
        .notRegistered(target, path: DependencyInjector.runningPath(endingAt: target), suggestions: [])
    }

    /// Whether `value` is a `T` (the type of a key, opened from its metatype).
    private static func value<T>(_ value: Any, is type: T.Type) -> Bool {
        value is T
    }

    /// `typed(making:)` of a transient: the fast path, which runs the factory in place
    /// (`DependencyInjector.make(_:)`), decorated there if its key may be.
    final func typedTransient<T>(making type: T.Type) -> TypedRegistration<T>? {
        guard isTransient else { return nil }
        return typed(making: type)
    }

    /// `typedTransient(making:)` of a registration read from a published slot, asked in place:
    /// the reader's announcement keeps it alive until withdrawn, so it is not retained and
    /// released for the question (a scoped one's answer is no). Apart, so that the closure
    /// adds nothing to the frame of an unoptimised resolve (see `DeepGraphTests`), which
    /// inlines nothing; an optimised one inlines it.
    @inline(__always)
    static func typedTransient<T>(_ registration: Unmanaged<Registration>, making type: T.Type)
        -> TypedRegistration<T>?
    {
        registration._withUnsafeGuaranteedRef { $0.typedTransient(making: type) }
    }

    /// This registration as the `TypedRegistration` of a `T`, when its factory makes a `T`
    /// from the injector alone, else `nil` (also when a completion runs on its values), whose
    /// value is never boxed in an `Any` and cast back.
    final func typed<T>(making type: T.Type) -> TypedRegistration<T>? {
        guard plainValueType == ObjectIdentifier(type), completion == nil else { return nil }
        // Safe: only a `TypedRegistration` has a `plainValueType` (the one initialiser that
        // takes it is private to this file), and it was just checked to be `T`. A checked
        // `as?` would look up the class's metadata.
        return unsafeDowncast(self, to: TypedRegistration<T>.self)
    }

    /// The argument types the factory declares; empty for a plain factory.
    final var argumentTypes: [any Any.Type] {
        guard case .withArguments(let types, _, _) = factory else { return [] }
        return types
    }
}

/// A registration of a plain factory (`register(_:name:scope:fileID:line:factory:)`), kept with the type
/// it makes, in the registration's own object.
@usableFromInline
final class TypedRegistration<Value>: Registration, @unchecked Sendable {
    // `@unchecked Sendable`: immutable, as `Registration` says.
    let make: @Sendable (DependencyInjector) throws -> Value

    /// The registration `register(_:name:scope:fileID:line:factory:)` makes.
    @usableFromInline
    convenience init(
        _ make: @escaping @Sendable (DependencyInjector) throws -> Value,
        key: DependencyKey,
        scope: Scope,
        site: RegistrationSite
    ) {
        self.init(make, key: key, scope: scope, site: site, rare: nil)
    }

    convenience init(
        _ make: @escaping @Sendable (DependencyInjector) throws -> Value,
        key: DependencyKey,
        scope: Scope,
        site: RegistrationSite,
        completion: Completion?,
        forwardedTo: DependencyKey? = nil,
        inTests: InTests? = nil,
        runsOnMainActor: Bool = false
    ) {
        self.init(
            make, key: key, scope: scope, site: site,
            rare: Rare.carrying(
                Extras(completion: completion, inTests: inTests, runsOnMainActor: runsOnMainActor),
                forwardedTo: forwardedTo, caching: nil, origin: nil))
    }

    private init(
        _ make: @escaping @Sendable (DependencyInjector) throws -> Value,
        key: DependencyKey,
        scope: Scope,
        site: RegistrationSite,
        rare: Rare?,
        modifying modified: Registration? = nil
    ) {
        self.make = make
        super.init(
            key: key, scope: scope, factory: .plain, site: site, plainValueType: ObjectIdentifier(Value.self),
            rare: rare, modifying: modified)
    }

    override func modified(_ extras: Extras) -> Registration {
        TypedRegistration(make, key: key, scope: scope, site: site, rare: rare(with: extras), modifying: self)
    }

    override func makeAny(with injector: DependencyInjector) throws -> Any {
        try make(injector)
    }
}

/// A `.plain` factory asked of a registration that is not a `TypedRegistration`: a broken
/// invariant of the library, reported rather than a crash.
private struct NoPlainFactory: Error, CustomStringConvertible {
    var description: String {
        "the registration has no factory to run (an inconsistency inside Injector: please report it)"
    }
}
