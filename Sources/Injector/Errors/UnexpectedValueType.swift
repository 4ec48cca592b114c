/// A stored value that is not of the type its key names: a broken invariant, not a crash.
struct UnexpectedValueType: Error, CustomStringConvertible {
    let expected: any Any.Type
    let actual: any Any.Type

    var description: String {
        "a value of type \(String(reflecting: actual)) where \(String(reflecting: expected)) was expected"
    }
}
