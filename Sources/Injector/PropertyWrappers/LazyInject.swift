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
/// resolves and the others wait for its value. A failure is not kept; the next read retries.
///
/// `$exporter` (a `Result<PDFExporter, InjectionError>`) resolves too, and gives errors without stopping:
///
/// ```swift
/// if case .failure(let error) = screen.$exporter { print(error) }
/// ```
///
/// > Important: Reading `exporter` when its resolution fails stops the program with the
/// > error's full description, because a property cannot throw. Check `$exporter` first
/// > when the dependency may be missing.
///
/// Because resolution waits for the first read, `@LazyInject` on one side breaks a cycle
/// between two types that need each other.
@propertyWrapper
public struct LazyInject<Value> {
    private let box: LazyResolution<Value>

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
            injector: injector ?? DependencyInjector.current,
            name: name,
            site: DeclarationSite(fileID: fileID, filePath: filePath, line: line)
        )
    }

    /// The value, resolved on first read. Reading it when resolution fails stops the program;
    /// see `$property`. Assigning replaces the value for this object.
    public var wrappedValue: Value {
        get {
            switch box.value() {
            case .success(let value): value
            case .failure(let error):
                stopReading("@LazyInject", declaredAt: box.site, after: error, searched: box.searched)
            }
        }
        nonmutating set { box.replace(with: newValue) }
    }

    /// The value, resolved now if it has not been yet, or the typed error.
    public var projectedValue: Result<Value, InjectionError> { box.value() }
}

extension LazyInject: Sendable where Value: Sendable {}

/// The state shared by every copy of one `@LazyInject` property. The value is kept as `Any`,
/// so a later read is one lock and one (usually free) cast, not generic value-witness calls.
final class LazyResolution<Value>: Sendable {
    private let state = Locked(LazyState.unresolved)
    private let injector: DependencyInjector
    private let name: String?
    let site: DeclarationSite
    /// The test scope that created the property, told of each failed resolution when it fails.
    private let recorder: WrapperFailureRecorder?

    init(injector: DependencyInjector, name: String?, site: DeclarationSite) {
        self.injector = injector
        self.name = name
        self.site = site
        recorder = WrapperFailureRecorder.current
    }

    func value() -> Result<Value, InjectionError> {
        // Every read after the first: one lock, no per-thread context.
        if let resolved = state.withLock({ $0.resolvedValue }) { return typed(resolved) }
        let context = ResolutionContext.current
        // One thread resolves, without the lock; the others sleep until it is done.
        let step = state.withLockWaiting { state -> LazyState.Step? in
            switch state {
            case .resolved(let value):
                return .ready(value)
            case .unresolved:
                state = .resolving(context)
                return .resolve
            case .resolving(let resolver):
                return resolver === context ? .reentered : nil
            }
        }
        switch step {
        case .ready(let value):
            return typed(value)
        case .reentered:
            // Resolving this property's value reads the same property again.
            return .failure(.circularDependency(path: context.path + [DependencyKey(Value.self, name: name)]))
        case .resolve:
            let result = injector.result(Value.self, name: name)
            state.withLock { state in
                // An assignment made meanwhile wins over what we resolved.
                guard case .resolving = state else { return }
                switch result {
                case .success(let value): state = .resolved(value)
                case .failure: state = .unresolved
                }
            }
            state.signalAll()
            if case .failure(let error) = result {
                WrapperFailureRecorder.report(
                    error, of: "@LazyInject", declaredAt: site, searched: searched, to: recorder)
            }
            return result
        }
    }

    /// Which injector the property resolves from, for a failure's message.
    var searched: String { injector.searchedDescription }

    func replace(with value: Value) {
        state.update { exchange(&$0, with: .resolved(value)) }
        state.signalAll()
    }

    private func typed(_ value: Any) -> Result<Value, InjectionError> {
        do {
            return .success(
                try DependencyInjector.cast(value, to: Value.self, key: DependencyKey(Value.self, name: name)))
        } catch {
            return .failure(error)
        }
    }
}

/// Where one `@LazyInject` property's resolution stands.
private enum LazyState {
    case unresolved
    case resolving(ResolutionContext)
    case resolved(Any)

    var resolvedValue: Any? {
        guard case .resolved(let value) = self else { return nil }
        return value
    }

    /// What a read does next.
    enum Step {
        case ready(Any)
        case resolve
        case reentered
    }
}
