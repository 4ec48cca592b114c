/// An async factory of the actor face, as a registration keeps it: it makes values of one
/// `Sendable` type (`valueType`), handed back as `any Sendable`.
///
/// A conformance, not a closure that wraps the user's: such a closure, made in a generic
/// function, is called through a partial-application thunk that unpacks its context (its
/// `T`), and for an async closure that thunk is an async call of its own: a frame and an
/// executor check more per run. A conformance's method is inlined into the witness that the
/// protocol calls (out of line, it would be one async call more). A class, so that a
/// registration's factory stays two words, as the closure and its type were (wider, it costs
/// every request copies).
protocol AsyncMaking: AnyObject, Sendable {
    /// The `Sendable` type of the values it makes, which a synchronous decorator's `Any` is
    /// cast back to (`Sendable` is a marker protocol: no cast can check it).
    var valueType: any Sendable.Type { get }

    /// A value, made for the run that `resolver` belongs to, with the run's `arguments`
    /// (`()` for a factory that takes none).
    func make(_ resolver: AsyncResolver, arguments: Any) async throws -> any Sendable

    /// Whether it is an `AsyncMaker` of `valueType`, whose closure a run calls itself (see
    /// `makeValue(_:arguments:)`).
    var isPlain: Bool { get }
}

extension AsyncMaking {
    /// `make(_:arguments:)`, with an `AsyncMaker`'s closure called in place, its `Value` opened
    /// from `valueType`: through the witness, an async call of its own, each run cost a frame
    /// and an executor check more.
    @inline(__always)
    func makeValue(_ resolver: AsyncResolver, arguments: Any) async throws -> any Sendable {
        guard isPlain else { return try await make(resolver, arguments: arguments) }
        return try await Self.callBody(of: self, making: valueType, resolver)
    }

    /// The value `maker`'s closure makes, `maker` being an `AsyncMaker<Value>` (`isPlain`).
    @inline(__always)
    private static func callBody<Value: Sendable>(
        of maker: Self,
        making type: Value.Type,
        _ resolver: AsyncResolver
    ) async throws -> any Sendable {
        // Safe: only `AsyncMaker` is plain, and its `valueType` is its `Value`.
        try await unsafeDowncast(maker, to: AsyncMaker<Value>.self).body(resolver)
    }
}

/// `AsyncMaking` for a factory that takes no arguments.
final class AsyncMaker<Value: Sendable>: AsyncMaking {
    let body: @Sendable (AsyncResolver) async throws -> Value

    init(body: @escaping @Sendable (AsyncResolver) async throws -> Value) {
        self.body = body
    }

    var valueType: any Sendable.Type { Value.self }

    var isPlain: Bool { true }

    @inline(__always)
    func make(_ resolver: AsyncResolver, arguments: Any) async throws -> any Sendable {
        try await body(resolver)
    }
}

/// `AsyncMaking` for a factory that takes run-time arguments, as one value.
final class AsyncArgumentsMaker<Value: Sendable>: AsyncMaking {
    let body: @Sendable (AsyncResolver, Any) async throws -> Value

    init(body: @escaping @Sendable (AsyncResolver, Any) async throws -> Value) {
        self.body = body
    }

    var valueType: any Sendable.Type { Value.self }

    var isPlain: Bool { false }

    @inline(__always)
    func make(_ resolver: AsyncResolver, arguments: Any) async throws -> any Sendable {
        try await body(resolver, arguments)
    }
}
