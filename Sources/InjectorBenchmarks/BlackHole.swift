/// Consumes a value so that the optimiser cannot delete the work that produced it.
///
/// `@inline(never)` keeps the call a call, and `@_optimize(none)` keeps the optimiser from
/// looking into the body and concluding that the call does nothing, which would let it drop
/// the call and then the work that fed it.
@inline(never) @_optimize(none)
func blackHole<T>(_ value: T) {
    withExtendedLifetime(value) {}
}
