/// A value that a synchronous factory made for a resolve of the actor face, as the
/// `any Sendable` that face shares between the tasks of a resolve (a `.graph` value).
enum SendableValue {
    /// `value` as an `any Sendable`. `Sendable` is a marker protocol, which no cast can check
    /// (`unsafeBitCast` refuses the pair at run time); the actor face resolves only `Sendable`
    /// types, and this is the value of one. An `any Sendable` is laid out as an `Any`: the
    /// value's buffer and its type, no witness table.
    static func assuming(_ value: Any) -> any Sendable {
        withUnsafePointer(to: value) { UnsafeRawPointer($0).assumingMemoryBound(to: (any Sendable).self).pointee }
    }
}
