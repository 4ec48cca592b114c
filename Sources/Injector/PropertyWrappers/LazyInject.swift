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
    @usableFromInline let box: LazyResolution<Value>

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
        @inlinable
        get {
            // A later read copies the kept value out of its box here, where `Value` is known:
            // unspecialised, the generic code looked up type metadata several times per read.
            if let kept = box.kept { return unsafeDowncast(kept, to: ReadyValue<Value>.self).value }
            return box.firstValue()
        }
        nonmutating set { box.replace(with: newValue) }
    }

    /// The value, resolved now if it has not been yet, or the typed error.
    public var projectedValue: Result<Value, InjectionError> { box.value() }
}

extension LazyInject: Sendable where Value: Sendable {}

/// The state shared by every copy of one `@LazyInject` property. The value is kept in a
/// `ReadyValue<Value>`, so that a later read is one lock, then a copy in the caller's
/// specialised code (see `LazyInject.wrappedValue`): no cast, no generic metadata lookup.
@usableFromInline
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

    /// The kept value's box, a `ReadyValue<Value>`; `nil` until the value is resolved.
    @usableFromInline
    var kept: AnyObject? {
        state.withLock { $0.kept }
    }

    /// The value for a read that found none kept: resolved now, or kept meanwhile. Stops the
    /// program when resolution fails (see `LazyInject.wrappedValue`).
    @usableFromInline
    func firstValue() -> Value {
        do {
            return try resolvedValue()
        } catch {
            stopReading("@LazyInject", declaredAt: site, after: error, searched: searched)
        }
    }

    /// `resolvedValue()` as a `Result`, for `$property`.
    func value() -> Result<Value, InjectionError> {
        do {
            return .success(try resolvedValue())
        } catch {
            return .failure(error)
        }
    }

    /// The kept value, or the value resolved now and kept. (Typed throws rather than a
    /// `Result`: this generic code, not specialised for `Value`, looked up the metadata of
    /// `Result<Value, InjectionError>` at run time on every call; it throws only on failure.)
    private func resolvedValue() throws(InjectionError) -> Value {
        // Every read after the first: one lock, no per-thread context.
        if let kept = state.withLock({ $0.kept }) { return Self.unboxed(kept) }
        let context = ResolutionContext.current
        // One thread resolves, without the lock; the others sleep until it is done.
        let step = state.withLockWaiting { state -> LazyState.Step? in
            switch state {
            case .resolved(let box):
                return .ready(box)
            case .unresolved:
                state = .resolving(context)
                return .resolve
            case .resolving(let resolver):
                return resolver === context ? .reentered : nil
            }
        }
        switch step {
        case .ready(let kept):
            return Self.unboxed(kept)
        case .reentered:
            // Resolving this property's value reads the same property again.
            throw .circularDependency(path: context.path + [DependencyKey(Value.self, name: name)])
        case .resolve:
            do {
                let value = try injector.resolve(Value.self, name: name)
                let box = ReadyValue(value)
                keep { state in state = .resolved(box) }
                return value
            } catch {
                keep { state in state = .unresolved }
                WrapperFailureRecorder.report(
                    error, of: "@LazyInject", declaredAt: site, searched: searched, to: recorder)
                throw error
            }
        }
    }

    /// Ends this thread's resolution with `outcome`, unless an assignment came meanwhile (it
    /// wins over what was resolved), and wakes the threads waiting for it.
    private func keep(_ outcome: (inout LazyState) -> Void) {
        state.withLock { state in
            guard case .resolving = state else { return }
            outcome(&state)
        }
        state.signalAll()
    }

    /// Which injector the property resolves from, for a failure's message.
    var searched: String { injector.searchedDescription }

    func replace(with value: Value) {
        state.update { exchange(&$0, with: .resolved(ReadyValue(value))) }
        state.signalAll()
    }

    /// The value in `kept`, which is always a `ReadyValue<Value>` (only this class fills it).
    private static func unboxed(_ kept: AnyObject) -> Value {
        unsafeDowncast(kept, to: ReadyValue<Value>.self).value
    }
}

/// Where one `@LazyInject` property's resolution stands.
private enum LazyState {
    case unresolved
    case resolving(ResolutionContext)
    /// The value, in the `ReadyValue` of the property's type.
    case resolved(AnyObject)

    var kept: AnyObject? {
        guard case .resolved(let box) = self else { return nil }
        return box
    }

    /// What a read does next.
    enum Step {
        case ready(AnyObject)
        case resolve
        case reentered
    }
}
