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
///
/// A preview scope (`previewScope()`) is one too, for previews rather than tests: the
/// registrations above it that carry a preview stand-in (``Registered/inPreviews(fileID:line:_:)``)
/// answer with it, and nothing is refused.
final class TestScope: Sendable {
    let isStrict: Bool
    /// Whether it is a preview scope (`previewScope()`), which uses the preview stand-ins of
    /// the registrations above it (``Registered/inPreviews(fileID:line:_:)``), not their test
    /// doubles.
    let isPreview: Bool
    /// The types whose registrations above the scope a strict scope resolves as they are.
    private let allowed: Set<ObjectIdentifier>
    /// The recorder of the test that opened the scope: what fails through the scope in a task
    /// that binds none (a `Task.detached` the test hands the injector to) is recorded on it.
    let recorder: TestIssueRecorder?

    init(isStrict: Bool, allowing types: [any Any.Type], isPreview: Bool = false, recorder: TestIssueRecorder? = nil) {
        self.isStrict = isStrict
        self.isPreview = isPreview
        allowed = Set(types.map { ObjectIdentifier($0) })
        self.recorder = recorder
    }

    /// The scope of `DependencyInjector.previewScope()`: preview stand-ins, nothing refused.
    static var preview: TestScope { TestScope(isStrict: false, allowing: [], isPreview: true) }

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
    /// Whether a test scope was passed (its doubles are used), and a preview scope.
    private(set) var passedTestScope = false
    private(set) var passedPreviewScope = false

    /// These scopes and `injector`, a test scope the walk for `key` has passed.
    func passing(_ injector: DependencyInjector, scope: TestScope, for key: DependencyKey) -> PassedTestScopes {
        var passed = self
        if scope.isStrict, passed.strictScope == nil { passed.strictScope = injector }
        if scope.allows(key) { passed.allowsKey = true }
        if scope.isPreview { passed.passedPreviewScope = true } else { passed.passedTestScope = true }
        return passed
    }

    /// What the walk returns for `found`, held above these scopes: a registration's test
    /// double (or, below a preview scope, its preview stand-in) in its place, or the refusal
    /// of a strict scope, or `found` as it is.
    func screen(_ found: consuming Location, key: DependencyKey) -> Location {
        switch consume found {
        case .pending(let registration, let holder, let keeper):
            // A key that `implements` forwards resolves its target, which is screened itself.
            if registration.forwardedTo != nil { return .pending(registration, heldBy: holder, keptBy: keeper) }
            guard let answer = answer(for: registration) else {
                let site = registration.site.of(registration.argumentTypes.isEmpty ? .factory : .factoryTakingArguments)
                return .refused(key, registeredAt: site)
            }
            return .pending(answer, heldBy: holder, keptBy: keeper)
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

    /// Whether a strict test scope passed refuses the key being resolved, unless a test double
    /// or an allowance stands for it (a preview stand-in does not: it is not the test's).
    private var refuses: Bool { strictScope != nil && !allowsKey }

    /// What answers for `registration` (held above these scopes) when its key is resolved
    /// below them: its test double, or its preview stand-in, or itself; `nil` when a strict
    /// test scope refuses it (not one allowed in tests, which only gets it past the refusal:
    /// a preview around the test still stands in for it). The one rule for resolves and for
    /// `registrations`.
    func answer(for registration: Registration) -> Registration? {
        if passedTestScope, case .double(let double)? = registration.inTests { return double }
        if refuses, !(passedTestScope && registration.isAllowedInTests) { return nil }
        if passedPreviewScope, let stand = registration.inPreviews { return stand }
        return registration
    }
}
