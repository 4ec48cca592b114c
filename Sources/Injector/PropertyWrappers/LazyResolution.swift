/// The state shared by every copy of one `@LazyInject` property: the injector and name it
/// resolves, and the value it keeps once resolved (`PublishedValue`: read with no lock where
/// `Synchronization` is available, copied out in the caller's specialised code).
///
/// The first read resolves as a singleton is created (`SingletonCreation`): one thread
/// resolves, the others wait for it, and a wait that would close a cycle with other threads
/// resolving singletons, or a read of the property by its own resolution, is a
/// `circularDependency`, not a deadlock.
@usableFromInline
final class LazyResolution<Value>: Sendable {
    /// The value, once resolved or assigned.
    @usableFromInline let kept = PublishedValue<Value>()
    private let injector: DependencyInjector
    private let name: String?
    let site: DeclarationSite
    /// The test scope that created the property, told of each failed resolution when it fails.
    private let recorder: TestIssueRecorder?

    init(injector: DependencyInjector, name: String?, site: DeclarationSite) {
        self.injector = injector
        self.name = name
        self.site = site
        recorder = TestIssueRecorder.current
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
        if let box = kept.lockedBox { return box.value }
        let context = ResolutionContext.current
        let key = SingletonCreation.Key(owner: ObjectIdentifier(self), registration: ObjectIdentifier(self))
        let dependency = DependencyKey(Value.self, name: name)
        let start = try SingletonCreation.shared.start(key, of: dependency, context: context) {
            kept.lockedBox.map(SingletonCreation.Start.ready)
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
            kept.keep(value, replacing: false)
            return value
        } catch {
            TestIssueRecorder.report(
                error, of: "@LazyInject", declaredAt: site, searched: searched, to: recorder)
            throw error
        }
    }

    /// Which injector the property resolves from, for a failure's message.
    var searched: String { injector.searchedDescription }

    func replace(with value: Value) {
        kept.keep(value, replacing: true)
    }
}
