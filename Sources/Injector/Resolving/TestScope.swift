/// What makes a child injector a test scope (``DependencyInjector/withOverrides(strict:allowing:_:operation:)``,
/// the `.injecting` trait, `InjectorTestCase`): the registrations above it are the app's, and
/// the test resolves them only as the scope says.
///
/// - A registration above the scope that carries a test double (``Registered/inTests(_:)``)
///   resolves with the double.
/// - In a strict scope, any other registration above it is refused
///   (``InjectionError/notProvidedInTest(_:path:registeredAt:)``) unless it is allowed in tests
///   (``Registered/allowedInTests()``) or its type is in the scope's `allowing` list.
///
/// Registrations made in the scope itself, or below it, are the test's own and used as they are.
final class TestScope: Sendable {
    let isStrict: Bool
    /// The types whose registrations above the scope a strict scope resolves as they are.
    private let allowed: Set<ObjectIdentifier>

    init(isStrict: Bool, allowing types: [any Any.Type]) {
        self.isStrict = isStrict
        allowed = Set(types.map { ObjectIdentifier($0) })
    }

    /// Whether the scope lets `key`'s registrations above it be used as they are.
    func allows(_ key: DependencyKey) -> Bool {
        allowed.contains(key.typeID)
    }
}

/// The test scopes a walk from a resolving injector has passed on its way up: a registration
/// found above them is the app's, seen from a test (see `TestScope`).
struct PassedTestScopes {
    /// The first strict scope passed, if any: where the refusal happened.
    private(set) var strictScope: DependencyInjector?
    /// Whether a scope passed allows the key being resolved.
    private(set) var allowsKey = false

    /// These scopes and `injector`, a test scope the walk for `key` has passed.
    func passing(_ injector: DependencyInjector, scope: TestScope, for key: DependencyKey) -> PassedTestScopes {
        var passed = self
        if scope.isStrict, passed.strictScope == nil { passed.strictScope = injector }
        if scope.allows(key) { passed.allowsKey = true }
        return passed
    }

    /// What the walk returns for `found`, held above these scopes: a registration's test
    /// double in its place, or the refusal of a strict scope, or `found` as it is.
    func screen(_ found: consuming Location, key: DependencyKey) -> Location {
        switch consume found {
        case .pending(let registration, let holder, let keeper):
            // A key that `implements` forwards resolves its target, which is screened itself.
            if registration.forwardedTo != nil { return .pending(registration, heldBy: holder, keptBy: keeper) }
            switch registration.inTests {
            case .double(let double)?:
                return .pending(double, heldBy: holder, keptBy: keeper)
            case .allowed?:
                return .pending(registration, heldBy: holder, keptBy: keeper)
            case nil:
                guard strictScope != nil, !allowsKey else {
                    return .pending(registration, heldBy: holder, keptBy: keeper)
                }
                return .refused(key, registeredAt: registration.site)
            }
        case .ready(let slot):
            guard strictScope != nil, !allowsKey else { return .ready(slot) }
            let site = slot.site
            _ = consume slot  // unlocks
            return .refused(key, registeredAt: site)
        case .absent:
            return .absent
        case .refused(let key, let site):
            return .refused(key, registeredAt: site)
        }
    }
}
