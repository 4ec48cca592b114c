import Dispatch

extension DependencyInjector {
    /// Registers a factory that takes run-time arguments, checked by the compiler; with
    /// `caching`, one value is kept per argument tuple (a session per user ID, a client per
    /// tenant).
    ///
    /// ```swift
    /// injector.register(Report.self) { (r, year: Int, format: Format) in Report(year: year, format: format) }
    /// injector.register(UserSession.self, caching: .strong(limit: 50)) { (r, userID: UUID) in
    ///     try UserSession(id: userID, api: r.resolve())
    /// }
    ///
    /// let session = try injector.resolve(UserSession.self, arguments: userID)  // made once per ID
    /// try injector.reset(UserSession.self)  // every session let go, at logout
    /// ```
    ///
    /// Without `caching`, the factory is transient: a value made for some arguments cannot
    /// stand for others. Resolving it with arguments of other types, or none, throws
    /// ``InjectionError/argumentMismatch(_:path:expected:given:)`` naming both lists of types.
    /// (The first argument is spelled out so that a factory without arguments always means
    /// ``register(_:name:scope:fileID:line:factory:)-method``.)
    ///
    /// With `caching` (``ArgumentCaching``), each tuple's value is made once, however many
    /// threads ask for it at once. The arguments must then be `Hashable`: a resolve with one
    /// that is not throws ``InjectionError/factoryFailed(_:path:underlying:)`` saying so. A value
    /// that needs closing says so with `teardown`, which runs once for each value the cache
    /// lets go, outside any lock: past its bound, on a reset of the key, when the registration
    /// is replaced or removed, and on ``close()`` of the injector that keeps the values, latest
    /// first (a value held ``ArgumentCaching/weak``ly is its holders' and is not torn down;
    /// without `caching` nothing is kept, so nothing is torn down). After that `close()`, a
    /// resolve that would make a value throws ``InjectionError/closed(_:path:)`` before any
    /// factory runs. The kept values outlive opened scopes: a factory that asks for a
    /// ``Scope/scoped`` value throws ``InjectionError/captiveDependency(_:path:holder:holderScope:)``.
    public func register<T, First, each Rest>(
        _ type: T.Type = T.self,
        name: String? = nil,
        caching: ArgumentCaching? = nil,
        teardown: (@Sendable (T) throws -> Void)? = nil,
        fileID: StaticString = #fileID,
        line: UInt = #line,
        factory: @escaping @Sendable (DependencyInjector, First, repeat each Rest) throws -> T
    ) {
        let key = DependencyKey(type, name: name)
        let close = teardown.map { close in
            Registration.Teardown.sync { value in try close(Self.cast(value, to: T.self, key: key)) }
        }
        store(
            key: key,
            scope: .transient,
            factory: .taking(
                First.self, repeat (each Rest).self,
                make: .sync { injector, arguments in
                    let (first, rest) = try Registration.unpack(arguments, as: (First, (repeat each Rest)).self)
                    guard caching != nil else { return try factory(injector, first, repeat each rest) }
                    let tuple = try ArgumentCaching.tuple(first, repeat each rest)
                    return try injector.cachedValue(of: key, teardown: close, for: tuple) { keeper in
                        try factory(keeper, first, repeat each rest)
                    }
                }),
            caching: caching,
            fileID: fileID,
            line: line
        )
    }

    /// Resolves a registration whose factory takes run-time arguments, passing `arguments`.
    ///
    /// ```swift
    /// let session = try injector.resolve(UserSession.self, arguments: userID)
    /// let report = try injector.resolve(Report.self, arguments: 2026, Format.pdf)
    /// ```
    ///
    /// - Throws: ``InjectionError/argumentMismatch(_:path:expected:given:)`` when the
    ///   registration takes other argument types (or none), and the errors of
    ///   ``resolve(_:name:)-method``.
    public func resolve<T, First, each Rest>(
        _ type: T.Type = T.self,
        name: String? = nil,
        arguments first: First,
        _ rest: repeat each Rest
    ) throws(InjectionError) -> T {
        let key = DependencyKey(type, name: name)
        let context = ResolutionContext.current
        // Observed like every resolve (`instrument` is one lock while nothing is observed).
        let observer = instrument(key, resolvedBy: context.innermost?.key)
        let start = observer == nil ? 0 : DispatchTime.now().uptimeNanoseconds
        var outcome = ResolutionEvent.Outcome.created
        defer {
            if let observer { notify(observer, of: key, resolvers: context.path, outcome: outcome, since: start) }
        }
        do {
            let registration = try registration(
                of: key, as: T.self, taking: First.self, repeat (each Rest).self, path: context.path)
            let (value, isCached) = try runTakingArguments(
                registration, in: context, arguments: (first, (repeat each rest)))
            if isCached { outcome = .cached }
            return try Self.cast(value, to: T.self, key: key)
        } catch {
            outcome = .failed(error)
            throw error
        }
    }

    /// Runs `registration`, whose factory takes `arguments`, on this thread (checked for a
    /// cycle), for either face: its value, and whether it is a value cached by argument that
    /// this resolve found, or that another made while it waited (an observed event's `cached`).
    func runTakingArguments(_ registration: Registration, in context: ResolutionContext, arguments: Any)
        throws(InjectionError) -> (value: Any, isCached: Bool)
    {
        try context.checkNotResolving(registration)
        let creations = context.argumentCreations
        let value = try run(registration, in: context, arguments: arguments)
        return (value, registration.caching != nil && context.argumentCreations == creations)
    }

    /// The registration of `key` (here or in the nearest ancestor) whose factory takes
    /// arguments of the types `First, Rest…`, for either face; `path` leads to the resolve.
    /// Throws `notRegistered`, or `argumentMismatch` when it takes other arguments, or none.
    func registration<T, First, each Rest>(
        of key: DependencyKey,
        as type: T.Type,
        taking first: First.Type,
        _ rest: repeat (each Rest).Type,
        path: @autoclosure () -> [DependencyKey]
    ) throws(InjectionError) -> Registration {
        // Found as a resolve's walk finds it: a strict test scope on the way refuses the app's.
        let found: Registration?
        switch locate(key) {
        case .pending(let registration, _, _):
            found = registration
        case .ready(let slot):
            _ = consume slot  // an instance: it takes no arguments (unlocked here)
            found = nil
        case .refused(let key, let site):
            throw Self.refusal(of: key, registeredAt: site, path: path() + [key], resolvingFrom: self)
        case .absent:
            let path = path()
            var arguments = [DependencyKey.name(of: First.self)]
            repeat arguments.append(DependencyKey.name(of: (each Rest).self))
            throw .notRegistered(
                key, path: path + [key],
                suggestions: suggestions(for: key, as: T.self, after: path) + [.registerTakingArguments(arguments)])
        }
        guard let registration = found, case .withArguments(_, let tupleType, _) = registration.factory,
            tupleType == ObjectIdentifier((First, (repeat each Rest)).self)
        else {
            throw .mismatchedArguments(
                key, path: path() + [key], expected: found?.argumentTypes ?? [],
                given: Registration.types(first, repeat each rest))
        }
        return registration
    }
}

extension Registration {
    /// The types `First, Rest…`, in order.
    static func types<First, each Rest>(_ first: First.Type, _ rest: repeat (each Rest).Type) -> [any Any.Type] {
        var types: [any Any.Type] = [first]
        for type in repeat each rest { types.append(type) }
        return types
    }

    /// `arguments` as the tuple `registration(of:…)` checked it to be.
    static func unpack<Arguments>(_ arguments: Any, as type: Arguments.Type) throws -> Arguments {
        guard let arguments = arguments as? Arguments else {
            throw UnexpectedValueType(expected: type, actual: Swift.type(of: arguments))
        }
        return arguments
    }
}

extension Registration.Factory {
    /// A factory that takes arguments of the types `First, Rest…`, as one `(First, (Rest…))`.
    static func taking<First, each Rest>(
        _ first: First.Type,
        _ rest: repeat (each Rest).Type,
        make: Registration.ArgumentsFactory
    ) -> Self {
        .withArguments(
            argumentTypes: Registration.types(first, repeat each rest),
            tupleType: ObjectIdentifier((First, (repeat each Rest)).self),
            make: make
        )
    }
}

extension InjectionError {
    /// ``argumentMismatch(_:path:expected:given:)`` with the types named module-qualified.
    static func mismatchedArguments(
        _ key: DependencyKey,
        path: [DependencyKey],
        expected: [any Any.Type],
        given: [any Any.Type]
    ) -> Self {
        .argumentMismatch(
            key, path: path, expected: expected.map(DependencyKey.name(of:)),
            given: given.map(DependencyKey.name(of:)))
    }
}
