/// The state shared by every copy of one `@LazyInject` property: the injector and name it
/// resolves, and the value it keeps once resolved (`PublishedValue`: read with no lock where
/// `Synchronization` is available, copied out in the caller's specialised code).
///
/// Not generic, so that creating one looks up no type metadata: for `LazyResolution<Value>`,
/// its `PublishedValue<Value>`, their lock and boxes, that was half of an owner's
/// initialisation. The value is kept in a box of its own type (`ReadyValue<Value>`).
///
/// A first read of a value the injector holds ready (an instance, a created singleton, in its
/// published table) keeps the table's own box with one compare-and-exchange: no lock, nothing
/// run, nothing to wait for (`readyValue(as:)`). Any other first read resolves as a singleton
/// is created (`SingletonCreation`): one thread resolves, the others wait for it, and a wait
/// that would close a cycle with other threads resolving singletons, or a read of the property
/// by its own resolution, is a `circularDependency`, not a deadlock.
@usableFromInline
final class LazyResolution: Sendable {
    /// The kept value's words (see `PublishedValue`): the object's first stored property, where
    /// `PublishedValue(in:lock:)` finds them, so that they cost no allocation of their own. Never
    /// used by name: `PublishedValue` alone reads and writes them, atomically (or under `lock`,
    /// before `Synchronization`); `nonisolated(unsafe)` for that reason.
    private nonisolated(unsafe) var words: (UInt, UInt) = (0, 0)
    @usableFromInline let injector: DependencyInjector
    @usableFromInline let name: String?
    let site: DeclarationSite
    /// The test scope that created the property, told of each failed resolution when it fails.
    let recorder: TestIssueRecorder?
    /// Before `Synchronization`: the lock that guards the kept value (see `PublishedValue`).
    @usableFromInline let lock: Locked<Void>?

    /// The actor face's run that created the property, when the property resolves from that
    /// face's registry: its first read, later, is bound to it again, so that what the registry
    /// cannot answer comes from the injector bound outside the run, as it would inside it.
    let actorFace: ActorFaceCurrent?

    /// What the first read would fail with, found when a builder (a factory, `make`) created
    /// the property, which throws it (see `WrapperFailure.lazyFailure`); kept here so that
    /// the builder finds the property among its object's (`FailureHolding`).
    let buildFailure: WrapperFailure?

    /// A resolution of `Value` under `name` from `injector`, for the property declared at `site`.
    init<Value>(of type: Value.Type, injector: DependencyInjector, name: String?, site: DeclarationSite) {
        if AsyncWrapperCapture.mayRun {  // the actor face may be running: two atomic loads
            let injector = injector.wrapperInjector(for: Value.self, name: name)
            self.injector = injector
            actorFace = ActorFaceCurrent.running.flatMap { $0.core === injector ? $0 : nil }
        } else {
            self.injector = injector
            actorFace = nil
        }
        self.name = name
        self.site = site
        buildFailure = WrapperFailure.lazyFailure(
            of: Value.self, name: name, declaredAt: site, searching: self.injector)
        recorder = TestIssueRecorder.currentIfAnyMade
        lock = PublishedValue.lockIfNeeded()
        PublishedValue.initialize(in: self)
    }

    deinit {
        kept.releaseKept()
    }

    /// The value, once resolved or assigned.
    @inlinable
    var kept: PublishedValue {
        PublishedValue(in: self, lock: lock)
    }

    /// The value the injector holds ready, kept by this first read with one
    /// compare-and-exchange (or the value another read kept first, or an assignment); `nil`
    /// when the injector's published table holds no ready value for it (a transient's factory
    /// to run, a value held by an ancestor, a table withdrawn while an observer watches): the
    /// read then takes `firstValue(as:)`'s exactly-once path. Inlined into the reader's code,
    /// so that the table's box is read with `Value` known.
    @inlinable
    func readyValue<Value>(as type: Value.Type) -> Value? {
        guard let found = injector.publishedSlot(for: Value.self, name: name),
            let (value, box) = found.readyValue(as: Value.self, name: name, in: injector)
        else { return nil }
        let kept = self.kept
        return kept.keepFirst(retained: box) ? value : kept.value(as: Value.self)
    }

    /// The value for a first read that found none kept nor ready: resolved now, or kept
    /// meanwhile. Stops the program when resolution fails (see `LazyInject.wrappedValue`).
    @usableFromInline
    func firstValue<Value>(as type: Value.Type) -> Value {
        do {
            return try resolvedValue(as: Value.self)
        } catch {
            stopReading("@LazyInject", declaredAt: site, after: error, searched: searched)
        }
    }

    /// `resolvedValue(as:)` as a `Result`, for `$property`.
    func value<Value>(as type: Value.Type) -> Result<Value, InjectionError> {
        do {
            return .success(try resolvedValue(as: Value.self))
        } catch {
            return .failure(error)
        }
    }

    /// The kept value, or the value resolved now and kept. (Typed throws rather than a
    /// `Result`: this generic code, not specialised for `Value`, looked up the metadata of
    /// `Result<Value, InjectionError>` at run time on every call; it throws only on failure.)
    private func resolvedValue<Value>(as type: Value.Type) throws(InjectionError) -> Value {
        let kept = self.kept
        if let value = kept.value(as: Value.self) ?? readyValue(as: Value.self) { return value }
        let context = ResolutionContext.current
        let key = SingletonCreation.Key(owner: ObjectIdentifier(self), registration: ObjectIdentifier(self))
        let dependency = DependencyKey(Value.self, name: name)
        let start = try SingletonCreation.shared.start(key, of: dependency, context: context) {
            kept.keptBox().map(SingletonCreation.Start.ready)
        }
        switch start {
        case .create: break
        case .ready(let kept as ReadyValue<Value>): return kept.value
        case .ready, .stale, .closed: return try resolvedValue(as: Value.self)  // not what `cached` above gives
        }
        defer { SingletonCreation.shared.finish(key) }
        do {
            // Marked as a wrapper's resolve: a strict scope's refusal of this key is recorded
            // once, here, at the property (see `DependencyInjector.refusal`).
            let value = try resolveFromInjector(Value.self)
            // A value kept meanwhile (an assignment, or a ready value another first read
            // kept) wins over what was resolved, for this read too: every first read sees one.
            if kept.keepFirst(retained: .passRetained(ReadyValue(value))) { return value }
            return kept.value(as: Value.self) ?? value  // never `nil`: a value is kept
        } catch {
            if !TestIssueRecorder.isRecordedAlready(error) {
                TestIssueRecorder.report(
                    error, of: "@LazyInject", declaredAt: site, searched: searched,
                    to: TestIssueRecorder.recorder(for: error, capturedAtInit: recorder, searching: injector))
            }
            throw error
        }
    }

    /// The value resolved from the injector, bound to the actor face's run that created the
    /// property, if any (see `actorFace`).
    private func resolveFromInjector<Value>(_ type: Value.Type) throws(InjectionError) -> Value {
        guard let actorFace else { return try injector.resolveLockedForWrapper(Value.self, name: name) }
        let outcome = ActorFaceCurrent.binding(actorFace) { () -> Result<Value, InjectionError> in
            do throws(InjectionError) {
                return .success(try injector.resolveLockedForWrapper(Value.self, name: name))
            } catch {
                return .failure(error)
            }
        }
        return try outcome.get()
    }

    /// Which injector the property resolves from, for a failure's message.
    var searched: String { injector.searchedDescription }

    func replace<Value>(with value: Value) {
        kept.assign(ReadyValue(value))
    }
}
