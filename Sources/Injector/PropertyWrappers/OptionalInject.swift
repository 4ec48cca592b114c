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
    @usableFromInline var resolution: Result<Wrapped?, InjectionError>

    /// Resolves `Wrapped` (under `name`) from `injector`, or from
    /// ``DependencyInjector/current`` when `injector` is `nil`; `nil` when it is not registered.
    ///
    /// `fileID`, `filePath` and `line` (leave the defaults) name the declaration in the issue
    /// a test records for a broken registration (see `InjectorTesting`).
    @inlinable
    public init(
        name: String? = nil,
        injector: DependencyInjector? = nil,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line
    ) {
        // Inlinable, as the reads are: the `Result` is built by code specialised for the
        // property's type (in the library's generic code, its metadata was looked up each time).
        let injector = injector ?? DependencyInjector.current
        resolution = injector.optionalResult(Wrapped.self, name: name)
        if case .failure(let error) = resolution {
            let site = DeclarationSite(fileID: fileID, filePath: filePath, line: line)
            TestIssueRecorder.report(
                error, of: "@OptionalInject", declaredAt: site, searchingIn: injector)
        }
    }

    /// The resolved value, or `nil` when nothing is registered or resolution failed.
    /// Assigning replaces the value for this object.
    public var wrappedValue: Wrapped? {
        @inlinable
        get {
            switch resolution {
            case .success(let value): value
            case .failure: nil
            }
        }
        @inlinable
        set { resolution = .success(newValue) }
    }

    /// `.success(nil)` when nothing is registered, `.failure` when a registration failed.
    public var projectedValue: Result<Wrapped?, InjectionError> {
        @inlinable
        get { resolution }
    }
}

extension OptionalInject: Sendable where Wrapped: Sendable {}
