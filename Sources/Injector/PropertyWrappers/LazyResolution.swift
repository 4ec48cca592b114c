import Synchronization

/// The state shared by every copy of one `@LazyInject` property. The value is kept in a
/// `ReadyValue<Value>`, copied out in the caller's specialised code (see
/// `LazyInject.wrappedValue`): no cast, no generic metadata lookup.
///
/// A later read takes no lock where `Synchronization` is available: the kept box's address
/// is published in an atomic word, and a reader announces it in its thread's hazard record
/// (`Hazards`) while it copies the value out, as a resolve reads a published table. An
/// assignment, which replaces the box, releases the old one only once no reader announces
/// it. Elsewhere a read takes the lock.
///
/// The first read resolves as a singleton is created (`SingletonCreation`): one thread
/// resolves, the others wait for it, and a wait that would close a cycle with other threads
/// resolving singletons, or a read of the property by its own resolution, is a
/// `circularDependency`, not a deadlock.
@usableFromInline
final class LazyResolution<Value>: @unchecked Sendable {
    // `@unchecked Sendable`: `box` is guarded by its lock; `published` (an `Atomic<UInt>`) is
    // touched only atomically; the other properties are immutable.

    /// The kept value's box, a `ReadyValue<Value>`; `nil` until the value is resolved.
    private let box = Locked<AnyObject?>(nil)
    /// The address of the box in `box` (0: none), for reads without the lock: an
    /// `Atomic<UInt>`, written only under `box`'s lock.
    private let published: UnsafeMutableRawPointer
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
        published = .allocate(byteCount: MemoryLayout<UInt>.size, alignment: MemoryLayout<UInt>.alignment)
        if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
            published.bindMemory(to: Atomic<UInt>.self, capacity: 1).initialize(to: Atomic(0))
        }
    }

    deinit {
        // No reader is left: each holds this object while it reads.
        published.deallocate()
    }

    /// The kept box, announced in this thread's hazard record so that it stays alive until
    /// the caller has copied the value out and cleared `hazard` (`ProtectedSlot.clear`);
    /// `nil`, with nothing announced, until the value is resolved. Takes no lock.
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @usableFromInline
    func announcedKept() -> (Unmanaged<AnyObject>, hazard: UnsafeMutableRawPointer)? {
        let atomic = published.assumingMemoryBound(to: Atomic<UInt>.self)
        var kept = atomic.pointee.load(ordering: .acquiring)
        guard kept != 0 else { return nil }
        let hazard = Hazards.hazard()
        while true {
            hazard.pointee.store(kept, ordering: .sequentiallyConsistent)
            // Still published after the announcement: an assignment that replaces it from now
            // on sees the announcement before it releases it (see `store(_:replacing:)`).
            let again = atomic.pointee.load(ordering: .sequentiallyConsistent)
            if again == kept, let box = UnsafeRawPointer(bitPattern: kept) {
                return (Unmanaged.fromOpaque(box), UnsafeMutableRawPointer(hazard))
            }
            kept = again
            guard kept != 0 else {
                hazard.pointee.store(0, ordering: .releasing)
                return nil
            }
        }
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
            store(ReadyValue(value), replacing: false)
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
        store(ReadyValue(value), replacing: true)
    }

    /// Keeps `new`, in place of a box already kept only when `replacing`; the box it replaces
    /// is released after the unlock, once no reader announces it (its `deinit` may run user code).
    private func store(_ new: ReadyValue<Value>, replacing: Bool) {
        let replaced = box.withLock { kept -> AnyObject?? in
            guard replacing || kept == nil else { return nil }
            if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
                let address = UInt(bitPattern: Unmanaged.passUnretained(new).toOpaque())
                published.assumingMemoryBound(to: Atomic<UInt>.self).pointee.store(
                    address, ordering: .sequentiallyConsistent)
            }
            return .some(exchange(&kept, with: new))
        }
        guard case .some(let old?) = replaced else { return }
        if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
            Hazards.waitUntilUnread(UInt(bitPattern: Unmanaged.passUnretained(old).toOpaque()))
        }
        withExtendedLifetime(old) {}
    }

    /// The value in `kept`, which is always a `ReadyValue<Value>` (only this class fills it).
    private static func unboxed(_ kept: AnyObject) -> Value {
        unsafeDowncast(kept, to: ReadyValue<Value>.self).value
    }
}
