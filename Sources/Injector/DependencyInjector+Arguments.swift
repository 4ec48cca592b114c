extension DependencyInjector {
    /// Registers a factory that takes run-time arguments, checked by the compiler.
    ///
    /// ```swift
    /// injector.register(UserSession.self) { (r, userID: UUID) in
    ///     try UserSession(id: userID, api: r.resolve())
    /// }
    /// injector.register(Report.self) { (r, year: Int, format: Format) in Report(year: year, format: format) }
    ///
    /// let session = try injector.resolve(UserSession.self, arguments: userID)
    /// ```
    ///
    /// A factory with arguments makes a new value on every resolve (it is transient: a value
    /// made for some arguments cannot stand for others). Resolving it with arguments of other
    /// types, or without arguments, throws
    /// ``InjectionError/argumentMismatch(_:path:expected:given:)`` naming both lists of types.
    ///
    /// The first argument is spelled out so that a factory without arguments always means
    /// ``register(_:name:scope:factory:)-method``.
    public func register<T, First, each Rest>(
        _ type: T.Type = T.self,
        name: String? = nil,
        factory: @escaping @Sendable (DependencyInjector, First, repeat each Rest) throws -> T
    ) {
        var argumentTypes: [any Any.Type] = [First.self]
        for argumentType in repeat (each Rest).self { argumentTypes.append(argumentType) }
        let make: @Sendable (DependencyInjector, Any) throws -> Any = { injector, arguments in
            // `resolve(_:name:arguments:_:)` checked the tuple type before calling.
            guard let arguments = arguments as? (First, (repeat each Rest)) else {
                throw UnexpectedValueType(expected: (First, (repeat each Rest)).self, actual: Swift.type(of: arguments))
            }
            return try factory(injector, arguments.0, repeat each arguments.1)
        }
        store(
            key: DependencyKey(type, name: name),
            scope: .transient,
            factory: .withArguments(
                argumentTypes: argumentTypes,
                tupleType: ObjectIdentifier((First, (repeat each Rest)).self),
                make: make
            )
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
        guard let (entry, _) = lookup(key) else {
            throw .notRegistered(key, path: context.path + [key], suggestions: suggestions(for: key, as: T.self))
        }
        guard case .factory(let registration, _) = entry,
            case .withArguments(_, let tupleType, _) = registration.factory,
            tupleType == ObjectIdentifier((First, (repeat each Rest)).self)
        else {
            var given = [String(reflecting: First.self)]
            for argumentType in repeat (each Rest).self { given.append(String(reflecting: argumentType)) }
            let expected: [String]
            if case .factory(let registration, _) = entry {
                expected = registration.argumentTypes.map { String(reflecting: $0) }
            } else {
                expected = []
            }
            throw .argumentMismatch(key, path: context.path + [key], expected: expected, given: given)
        }
        try context.checkNotResolving(registration)
        return try Self.cast(
            run(registration, in: context, arguments: (first, (repeat each rest))), to: T.self, key: key)
    }
}
