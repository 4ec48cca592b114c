import Dispatch

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
    /// Such a factory is transient: a value made for some arguments cannot stand for others.
    /// Resolving it with arguments of other types, or none, throws
    /// ``InjectionError/argumentMismatch(_:path:expected:given:)`` naming both lists of types.
    /// (The first argument is spelled out so that a factory without arguments always means
    /// ``register(_:name:scope:fileID:line:factory:)-method``.)
    public func register<T, First, each Rest>(
        _ type: T.Type = T.self,
        name: String? = nil,
        fileID: StaticString = #fileID,
        line: UInt = #line,
        factory: @escaping @Sendable (DependencyInjector, First, repeat each Rest) throws -> T
    ) {
        store(
            key: DependencyKey(type, name: name),
            scope: .transient,
            factory: .taking(
                First.self, repeat (each Rest).self,
                make: .sync { injector, arguments in
                    let (first, rest) = try Registration.unpack(arguments, as: (First, (repeat each Rest)).self)
                    return try factory(injector, first, repeat each rest)
                }),
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
            try context.checkNotResolving(registration)
            return try Self.cast(
                run(registration, in: context, arguments: (first, (repeat each rest))), to: T.self, key: key)
        } catch {
            outcome = .failed(error)
            throw error
        }
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
        guard let (entry, _) = lookup(key) else {
            throw .notRegistered(key, path: path() + [key], suggestions: suggestions(for: key, as: T.self))
        }
        guard case .factory(let registration, _) = entry,
            case .withArguments(_, let tupleType, _) = registration.factory,
            tupleType == ObjectIdentifier((First, (repeat each Rest)).self)
        else {
            var expected: [any Any.Type] = []
            if case .factory(let registration, _) = entry { expected = registration.argumentTypes }
            throw .mismatchedArguments(
                key, path: path() + [key], expected: expected, given: Registration.types(first, repeat each rest))
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
            key, path: path, expected: expected.map { String(reflecting: $0) },
            given: given.map { String(reflecting: $0) })
    }
}
