/// A property whose value the injector resolves on first read, then keeps.
///
/// ```swift
/// final class ReportScreen {
///     @LazyInject var exporter: PDFExporter  // resolved the first time it is read
/// }
/// ```
///
/// The wrapper captures the injector when the owner is initialised (`injector:`, or
/// ``DependencyInjector/current``), so a later read from any thread resolves from it, and sees
/// registrations made before that read. When several threads read first at once, one
/// resolves and the others wait for its value, as for a singleton's creation: a wait that
/// would never end (the resolution needs a singleton whose factory, on another thread, reads
/// this property) is a ``InjectionError/circularDependency(path:)`` instead. A failure is not
/// kept; the next read retries.
///
/// `$exporter` (a `Result<PDFExporter, InjectionError>`) resolves too, and gives errors without stopping:
///
/// ```swift
/// if case .failure(let error) = screen.$exporter { print(error) }
/// ```
///
/// When a factory builds the owner, or ``DependencyInjector/make(_:)`` does, the property is
/// checked without being resolved: a key that its injector cannot answer (nothing
/// registered, a strict test scope's refusal) fails that resolve (or `make`), with the
/// property in the error's path. No factory runs until the first read.
///
/// > Important: Reading `exporter` when its resolution fails stops the program with the
/// > error's full description, because a property cannot throw. After a checked
/// > construction that happens only when its factory fails on that read; in an owner made by
/// > hand, also when nothing is registered. Check `$exporter` first when either may happen.
///
/// Because resolution waits for the first read, `@LazyInject` on one side breaks a cycle
/// between two types that need each other.
@propertyWrapper
public struct LazyInject<Value> {
    @usableFromInline let box: LazyResolution

    /// Captures `injector`, or ``DependencyInjector/current`` when `injector` is `nil`, to
    /// resolve `Value` (under `name`) on first read.
    ///
    /// `fileID`, `filePath` and `line` (leave the defaults) name the declaration in a
    /// failure's message, and in the issue a test records for it (see `InjectorTesting`).
    public init(
        name: String? = nil,
        injector: DependencyInjector? = nil,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line
    ) {
        box = LazyResolution(
            of: Value.self,
            injector: injector ?? DependencyInjector.current,
            name: name,
            site: DeclarationSite(fileID: fileID, filePath: filePath, line: line)
        )
    }

    /// The value, resolved on first read. Reading it when resolution fails stops the program;
    /// see `$property`. Assigning replaces the value for this object, and releases the value it
    /// replaced once no other thread is reading it; the first value, resolved, is released with
    /// the object (reads of it take no lock and announce nothing), so a resolved value that
    /// holds this object back should hold it weakly.
    public var wrappedValue: Value {
        @inlinable
        get {
            // A later read copies the kept value out here, where `Value` is known (see
            // `PublishedValue.value`); so does a first read of a value the injector holds ready.
            if let value = box.kept.value(as: Value.self) ?? box.readyValue(as: Value.self) { return value }
            return box.firstValue(as: Value.self)
        }
        nonmutating set { box.replace(with: newValue) }
    }

    /// The value, resolved now if it has not been yet, or the typed error.
    public var projectedValue: Result<Value, InjectionError> { box.value(as: Value.self) }
}

extension LazyInject: Sendable where Value: Sendable {}

extension LazyInject: FailureHolding {
    var heldFailure: WrapperFailure? { box.buildFailure }
}
