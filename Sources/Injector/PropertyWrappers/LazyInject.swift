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
///
/// The first read resolves as a singleton is created (`SingletonCreation`): one thread
/// resolves, the others wait for it, and a wait that would close a cycle with other threads
/// resolving singletons, or a read of the property by its own resolution, is a
/// `circularDependency`, not a deadlock.
@usableFromInline
final class LazyResolution<Value>: Sendable {
    /// The kept value's box, a `ReadyValue<Value>`; `nil` until the value is resolved.
    private let box = Locked<AnyObject?>(nil)
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
        box.withLock { $0 }
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
        if let kept { return Self.unboxed(kept) }
        let context = ResolutionContext.current
        let key = SingletonCreation.Key(owner: ObjectIdentifier(self), registration: ObjectIdentifier(self))
        let dependency = DependencyKey(Value.self, name: name)
        let start = try SingletonCreation.shared.start(key, of: dependency, context: context) {
            kept.map(SingletonCreation.Start.ready)
        }
        switch start {
        case .create: break
        case .ready(let kept as ReadyValue<Value>): return kept.value
        case .ready, .stale: return try resolvedValue()  // not what `cached` above gives
        }
        defer { SingletonCreation.shared.finish(key) }
        do {
            let value = try injector.resolve(Value.self, name: name)
            // An assignment meanwhile wins over what was resolved.
            let boxed = ReadyValue(value)
            box.withLock { kept in
                if kept == nil { kept = boxed }
            }
            return value
        } catch {
            WrapperFailureRecorder.report(
                error, of: "@LazyInject", declaredAt: site, searched: searched, to: recorder)
            throw error
        }
    }

    /// Which injector the property resolves from, for a failure's message.
    var searched: String { injector.searchedDescription }

    func replace(with value: Value) {
        box.update { exchange(&$0, with: ReadyValue(value)) }
    }

    /// The value in `kept`, which is always a `ReadyValue<Value>` (only this class fills it).
    private static func unboxed(_ kept: AnyObject) -> Value {
        unsafeDowncast(kept, to: ReadyValue<Value>.self).value
    }
}
