/// How a factory that takes run-time arguments keeps the values it makes: one per argument
/// tuple, a session per user ID, a client per tenant
/// (``DependencyInjector/register(_:name:caching:teardown:fileID:line:factory:)``); without
/// one, such a factory keeps nothing.
///
/// ```swift
/// injector.register(TenantClient.self, caching: .strong(limit: 100)) { (r, tenant: TenantID) in
///     try TenantClient(tenant: tenant, http: r.resolve())
/// }
/// ```
public struct ArgumentCaching: Hashable, Sendable {
    /// Whether values are held weakly.
    let isWeak: Bool
    /// How many values are kept at most, the least recently used let go first; `nil`: no bound.
    let limit: Int?

    /// Keeps every value strongly, until the key is reset (``DependencyInjector/reset(_:name:)``).
    public static let strong = ArgumentCaching(isWeak: false, limit: nil)

    /// Keeps at most `limit` values strongly, letting go of the least recently used.
    ///
    /// A value that a resolve is still being handed is not let go: its creator tears down what
    /// the bound let go before returning it, and meanwhile it stays, over the bound, until the
    /// next creation. Once returned, a value may be let go (and torn down) while its caller
    /// still uses it, when `limit` other tuples are used since: keep the bound above the
    /// number of values in use at once, or hold them with ``weak``.
    public static func strong(limit: Int) -> ArgumentCaching {
        ArgumentCaching(isWeak: false, limit: max(1, limit))
    }

    /// Keeps each value weakly: shared while something else holds it, made again after. A
    /// value that is not a class instance cannot be held weakly and is made on every resolve.
    /// The tuples whose values are gone are forgotten, with their arguments, at later creations.
    public static let weak = ArgumentCaching(isWeak: true, limit: nil)

    /// The lifetime of the values it keeps, as a captive dependency names it
    /// (``InjectionError/captiveDependency(_:path:holder:holderScope:)``): the named scope
    /// `caching: .strong(limit: 100)`, which outlives opened scopes as every named scope does.
    /// A scope of its own, not ``Scope/singleton``, so that the message names what was written.
    var lifetime: Scope { .named(Self.lifetimePrefix + description) }

    /// What begins the name of an argument cache's ``lifetime``.
    static let lifetimePrefix = "caching: "

    /// The arguments as the key of their value: each must be `Hashable` (the register that
    /// takes them cannot require it, as its uncached form takes any argument).
    static func tuple<First, each Rest>(_ first: First, _ rest: repeat each Rest) throws -> [AnyHashable] {
        var tuple: [AnyHashable] = [try hashable(first)]
        repeat tuple.append(try hashable(each rest))
        return tuple
    }

    private static func hashable<Argument>(_ argument: Argument) throws -> AnyHashable {
        guard let hashable = argument as? AnyHashable else {
            throw UnhashableArgument(typeName: String(reflecting: type(of: argument)))
        }
        return hashable
    }
}

/// A cached factory's argument that is not `Hashable`: its tuple cannot key a value.
struct UnhashableArgument: ExplainedFailure, CustomStringConvertible {
    /// The argument's type, module-qualified.
    let typeName: String

    var problem: String {
        "an argument's type, \(typeName), is not Hashable, so the argument cache cannot key a value by it"
    }

    var fix: String { "make \(typeName) Hashable, or register without `caching:`" }

    var description: String { "\(problem): \(fix)" }
}

extension ArgumentCaching: CustomStringConvertible {
    /// The caching as written in code: `.strong`, `.strong(limit: 100)` or `.weak`.
    public var description: String {
        if isWeak { return ".weak" }
        return limit.map { ".strong(limit: \($0))" } ?? ".strong"
    }
}

extension Scope {
    /// Whether this is an argument cache's lifetime (see `ArgumentCaching.lifetime`), which a
    /// captive dependency's fix line tells apart from a scope the user can change.
    var isArgumentCaching: Bool {
        guard case .named(let name) = self else { return false }
        return name.hasPrefix(ArgumentCaching.lifetimePrefix)
    }
}

extension DependencyInjector {
    /// The value of `key`'s registration (which takes arguments) for the argument `tuple`, as
    /// a resolve through this injector finds it: kept by the injector that would keep the
    /// registration's singleton (its holder, or a `.own` child such as a test scope, so that
    /// no child's override reaches another's values and tests see none of each other's), and
    /// made by it (`make` gets it), once.
    func cachedValue(
        of key: DependencyKey,
        caching: ArgumentCaching,
        teardown: Registration.Teardown?,
        for tuple: [AnyHashable],
        make: (DependencyInjector) throws -> Any
    ) throws -> Any {
        let context = ResolutionContext.current
        let running = context.innermost
        let (cache, keeper) = try argumentCache(of: key, running: running, caching: caching, teardown: teardown)
        // Decorated where it is made, before the cache keeps it (see `Registration.decoratesOwnValues`).
        guard let cache else {
            return try keeper.orphaned(decoratedIfAny(make(self), key: key, in: context), of: key, teardown: teardown)
        }
        // Made with the keeper as `current`, as a singleton is: the wrappers of what the
        // factory builds resolve from the keeper, never from the child that asked.
        return try cache.value(for: tuple, of: key, context: context, keptBy: keeper) {
            let value = try Self.current === keeper ? make(keeper) : keeper.runAsCurrent(make)
            return try keeper.decoratedIfAny(value, key: key, in: context)
        }
    }

    /// The cache of `running`, `key`'s registration (which takes arguments) whose factory asks,
    /// that a resolve through this injector uses, and its keeper. No cache when the walk no
    /// longer finds `running` (replaced or removed since its run began): its value is kept by
    /// no cache, as one its retired cache makes (see `orphaned(_:of:teardown:)`), and never by
    /// the cache of the registration that replaced it, nor does it retire that one's.
    ///
    /// - Throws: ``InjectionError/closed(_:path:)`` once the keeper is closed: nothing is kept
    ///   after `close()`, as for a singleton.
    func argumentCache(
        of key: DependencyKey,
        running: Registration?,
        caching: ArgumentCaching,
        teardown: Registration.Teardown?
    ) throws(InjectionError) -> (ArgumentCache?, DependencyInjector) {
        guard case .pending(let registration, let holder, let keeper) = locate(key), registration === running else {
            return (nil, self)
        }
        let (cache, replaced, isStale) = keeper.registry.withLock {
            registry -> (ArgumentCache?, (registration: Registration, cache: ArgumentCache)?, Bool) in
            guard !registry.isClosed else { return (nil, nil, false) }
            if let kept = registry.argumentCaches[key], kept.registration === registration {
                return (kept.cache, nil, false)
            }
            // Replaced since the walk (the keeper holds it, as it mostly does): a cache of a
            // newer registration may be here, which this one must not retire.
            if holder === keeper, !registry.stores(registration) { return (nil, nil, true) }
            let cache = ArgumentCache(caching, of: registration, teardown: teardown)
            // The pair leaves the lock whole: its registration is released after the unlock.
            return (cache, registry.argumentCaches.updateValue((registration, cache), forKey: key), false)
        }
        if isStale { return (nil, self) }
        // A replaced registration's values, torn down and released after the unlock.
        if let replaced { keeper.tearDown(replaced.cache.retire()) }
        guard let cache else { throw .closed(key, path: Self.runningPath(endingAt: key)) }
        return (cache, keeper)
    }

    /// `value`, made for `key` by a factory that caches by argument, for no cache to keep (see
    /// `argumentCache`): its `teardown` waits for this injector's `close()`, as a retired
    /// cache's values' do.
    func orphaned<Value>(_ value: Value, of key: DependencyKey, teardown: Registration.Teardown?) -> Value {
        if let teardown { keepOrphan(PendingTeardown(of: value, key: key, teardown: teardown)) }
        return value
    }
}

extension AsyncResolver {
    /// `DependencyInjector.cachedValue(of:caching:teardown:for:make:)` for the actor face,
    /// whose factory `make` gets a resolver of the keeper's face and may await.
    func cachedValue<T: Sendable>(
        of key: DependencyKey,
        caching: ArgumentCaching,
        teardown: Registration.Teardown?,
        for tuple: [AnyHashable],
        make: (AsyncResolver) async throws -> T
    ) async throws -> T {
        let running = frames.innermostRegistration
        let (cache, keeper) = try injector.core.argumentCache(
            of: key, running: running, caching: caching, teardown: teardown)
        // Decorated where it is made, before the cache keeps it (see `Registration.decoratesOwnValues`).
        guard let cache else {
            return try await keeper.orphaned(
                injector.decoratedIfAny(make(self), key: key, after: frames), of: key, teardown: teardown)
        }
        let face = injector.face(of: keeper)
        // The keeper's face is not `current` here: what its resolver runs binds it.
        let resolver = face === injector ? self : AsyncResolver(face, frames: frames, task: nil)
        return try await cache.value(for: tuple, as: T.self, after: frames, keptBy: keeper) {
            // Made with the keeper's face as `current`, as a singleton is (see the sync face).
            let value = try await face === injector ? make(resolver) : face.asCurrent { try await make(resolver) }
            return try await face.decoratedIfAny(value, key: key, after: frames)
        }
    }
}
