/// A property whose value the injector resolves when the owning object is initialised.
///
/// ```swift
/// final class Checkout {
///     @Inject var payments: PaymentService
///     @Inject(name: "receipts") var mailer: Mailer
///     @Inject(injector: appInjector) var logger: Logger
/// }
/// ```
///
/// The value comes from `injector:`, or from ``DependencyInjector/current`` when the owner is
/// created (so an object created in a test's scope, or by a child's factory, resolves from
/// that injector). When a factory builds the owner, or ``DependencyInjector/make(_:)`` does,
/// a failure fails that resolve (or `make`), with this property in the error's path: nothing
/// half-built is returned or kept. An owner created by hand keeps the typed error instead,
/// and `$payments` (a `Result<PaymentService, InjectionError>`) gives it:
///
/// ```swift
/// switch checkout.$payments {
/// case .success(let payments): payments.charge(10)
/// case .failure(let error): print(error)  // what is missing, the path, how to fix it
/// }
/// let payments = try checkout.$payments.get()  // or as a typed throw
/// ```
///
/// > Important: Reading `payments` after a failed resolution stops the program with the
/// > error's full description, because a property cannot throw. Create such owners with
/// > `try injector.make { Checkout() }`, which throws the failure instead; or check
/// > `$payments` first when the dependency may be missing, or use ``OptionalInject``.
///
/// Assigning to the property replaces the value for this object only (tests swap in stubs).
@propertyWrapper
public struct Inject<Value> {
    /// The value, or the failure with where the property is declared, boxed so that the
    /// wrapper is as small as its value (one word for a class): owners initialise cheaply.
    @usableFromInline
    enum Resolution {
        case resolved(Value)
        case failed(WrapperFailure)
    }

    @usableFromInline var resolution: Resolution

    /// Resolves `Value` (under `name`) from `injector`, or from
    /// ``DependencyInjector/current`` when `injector` is `nil`.
    ///
    /// When the owner is being built by a factory, or by ``DependencyInjector/make(_:)``, a
    /// failure fails that resolve (or `make`) instead, with the property in the error's path.
    ///
    /// `fileID`, `filePath`, `line` and `function` (leave the defaults) name the declaration
    /// in a failure's message, and in the issue a test records for it (see `InjectorTesting`).
    @inlinable
    public init(
        name: String? = nil,
        injector: DependencyInjector? = nil,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        function: StaticString = #function
    ) {
        let injector = injector ?? DependencyInjector.current
        do {
            resolution = .resolved(try injector.resolveForWrapper(Value.self, name: name))
        } catch {
            let site = DeclarationSite(fileID: fileID, filePath: filePath, line: line, context: function)
            resolution = .failed(WrapperFailure(error, declaredAt: site, searching: injector))
        }
    }

    /// Reads the key-path dependency at `keyPath` from `injector`, or from
    /// ``DependencyInjector/current`` when `injector` is `nil`. It never fails: without a
    /// registration for its key, the value is the key's default.
    ///
    /// ```swift
    /// @Inject(\.networkProvider) var network: any NetworkProviding
    /// ```
    ///
    /// `fileID`, `filePath` and `line` (leave the defaults) locate the issue a test records
    /// when a registered factory fails and the default is used instead: the property.
    public init(
        _ keyPath: KeyPath<InjectedValues, Value>,
        injector: DependencyInjector? = nil,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line
    ) {
        let injector = injector ?? DependencyInjector.current
        resolution = .resolved(injector.resolve(keyPath, fileID: fileID, filePath: filePath, line: line))
    }

    /// The resolved value. Reading it after a failed resolution stops the program (see `$property`).
    public var wrappedValue: Value {
        // Inlinable, so that a read is specialised for `Value` in the owner's code and costs
        // about what a stored property does; in the library's generic code it looked up type
        // metadata on every read (dearer than a resolve).
        @inlinable
        get {
            switch resolution {
            case .resolved(let value): value
            case .failed(let failure): failure.stop("@Inject")
            }
        }
        @inlinable
        set { resolution = .resolved(newValue) }
    }

    /// The outcome of the resolution: the value, or the typed error that says what is missing.
    public var projectedValue: Result<Value, InjectionError> {
        @inlinable
        get {
            switch resolution {
            case .resolved(let value): .success(value)
            case .failed(let failure): .failure(failure.error)
            }
        }
    }
}

extension Inject: Sendable where Value: Sendable {}

extension Inject: FailureHolding {
    var heldFailure: WrapperFailure? {
        guard case .failed(let failure) = resolution else { return nil }
        return failure
    }
}
extension Inject.Resolution: Sendable where Value: Sendable {}
