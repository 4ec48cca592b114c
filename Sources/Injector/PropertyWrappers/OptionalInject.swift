/// A property that is `nil` when nothing is registered for its type, and never stops the program.
///
/// ```swift
/// final class Checkout {
///     @OptionalInject var analytics: Analytics?  // nil in apps that register none
/// }
/// ```
///
/// Resolved when the owner is initialised, like ``Inject``. When `Analytics` is registered
/// but cannot be built (its factory throws, a dependency is missing, a cycle), the property
/// is `nil` as well, but the error is kept: `$analytics` is `.success(nil)` for "nothing
/// registered" and `.failure(error)` for a broken registration.
///
/// ```swift
/// if case .failure(let error) = checkout.$analytics {
///     logger.warning("analytics is registered but broken: \(error)")
/// }
/// ```
@propertyWrapper
public struct OptionalInject<Wrapped> {
    private var resolution: Result<Wrapped?, InjectionError>

    /// Resolves `Wrapped` (under `name`) from `injector`, or from
    /// ``DependencyInjector/current`` when `injector` is `nil`; `nil` when it is not registered.
    ///
    /// `fileID`, `filePath` and `line` (leave the defaults) name the declaration in the issue
    /// a test records for a broken registration (see `InjectorTesting`).
    public init(
        name: String? = nil,
        injector: DependencyInjector? = nil,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line
    ) {
        let injector = injector ?? DependencyInjector.current
        // Checked first: absence, the expected case, builds no error.
        guard injector.isRegistered(Wrapped.self, name: name) else {
            resolution = .success(nil)
            return
        }
        switch injector.result(Wrapped.self, name: name) {
        case .success(let value):
            resolution = .success(value)
        case .failure(.notRegistered(let key, _, _)) where key == DependencyKey(Wrapped.self, name: name):
            resolution = .success(nil)  // unregistered between the check and the resolve
        case .failure(let error):
            resolution = .failure(error)
            let site = DeclarationSite(fileID: fileID, filePath: filePath, line: line)
            WrapperFailureRecorder.report(
                error, of: "@OptionalInject", declaredAt: site, searched: injector.searchedDescription, to: .current)
        }
    }

    /// The resolved value, or `nil` when nothing is registered or resolution failed.
    /// Assigning replaces the value for this object.
    public var wrappedValue: Wrapped? {
        get { try? resolution.get() ?? nil }
        set { resolution = .success(newValue) }
    }

    /// `.success(nil)` when nothing is registered, `.failure` when a registration failed.
    public var projectedValue: Result<Wrapped?, InjectionError> { resolution }
}

extension OptionalInject: Sendable where Wrapped: Sendable {}
