/// An injector's own registrations, guarded by its lock.
///
/// Unnamed and named registrations live in separate tables, so that the common unnamed
/// lookup hashes only an `ObjectIdentifier`, and a named one adds one string hash.
struct Registry {
    private var unnamed = [ObjectIdentifier: Slot]()
    private var named = [ObjectIdentifier: [String: Slot]]()
    /// Whether registrations are refused (see `DependencyInjector.seal()`).
    var isSealed = false
    /// Whether `close()` has begun: nothing is kept from then on (see `DependencyInjector.close()`).
    var isClosed = false
    /// While the actor face's close runs (`DependencyInjector.beginClose()`), the closes that
    /// wait for it to end; `nil` while none runs. Not `Seldom`'s: every such close writes it.
    var closesWaiting: [CheckedContinuation<Void, Never>]?
    /// What few registries write (see `Seldom`), `nil` until the first write of any of it.
    private var seldom: Seldom?

    /// `seldom`, made by the first write.
    private var seldomMade: Seldom {
        get { seldom ?? Seldom() }
        _modify {
            // Moved out and back: changed in place, not copied.
            var made = seldom.take() ?? Seldom()
            defer { seldom = made }
            yield &made
        }
    }

    /// The module types installed, or being installed, into this injector (see `Seldom`).
    var modules: [ObjectIdentifier: ModuleState] {
        get { seldom?.modules ?? .init() }
        _modify { yield &seldomMade.modules }
    }

    /// Which installation each waiting installation waits for (see `Seldom`).
    var installationWaits: [ObjectIdentifier: Installation] {
        get { seldom?.installationWaits ?? .init() }
        _modify { yield &seldomMade.installationWaits }
    }

    /// The teardowns of values made for registrations replaced while their factories ran (see `Seldom`).
    var orphanTeardowns: [PendingTeardown] {
        get { seldom?.orphanTeardowns ?? [] }
        _modify { yield &seldomMade.orphanTeardowns }
    }

    /// Teardowns that failed outside `close()`, for the next `close()` to throw (see `Seldom`).
    var teardownFailures: [TeardownError.Failure] {
        get { seldom?.teardownFailures ?? [] }
        _modify { yield &seldomMade.teardownFailures }
    }

    /// The tasks running asynchronous teardowns of values let go outside `close()` (see `Seldom`).
    var teardownTasks: [UInt64: Task<Void, Never>] {
        get { seldom?.teardownTasks ?? .init() }
        _modify { yield &seldomMade.teardownTasks }
    }

    /// Numbers `teardownTasks`.
    var teardownTasksStarted: UInt64 {
        get { seldom?.teardownTasksStarted ?? 0 }
        _modify { yield &seldomMade.teardownTasksStarted }
    }

    /// The collections this injector declares or contributes to (see `Seldom`).
    var collections: [DependencyKey: CollectionContents] {
        get { seldom?.collections ?? .init() }
        _modify { yield &seldomMade.collections }
    }

    /// The parameter keys of the initializers registered here (see `Seldom`).
    var initializerParameters: [DependencyKey: [DependencyKey]] {
        get { seldom?.initializerParameters ?? .init() }
        _modify { yield &seldomMade.initializerParameters }
    }

    /// The decorators added here, by key (see `Seldom`).
    private var decorators: Decorators {
        get { seldom?.decorators ?? Decorators() }
        _modify { yield &seldomMade.decorators }
    }

    /// What `close()` takes out besides the kept values: the orphans' teardowns and the
    /// teardown tasks; `nil` when there are none (most opened scopes): nothing made, nor
    /// released, for them.
    mutating func takeAtClose() -> (orphans: [PendingTeardown], tasks: [UInt64: Task<Void, Never>])? {
        guard seldom?.orphanTeardowns.isEmpty == false || seldom?.teardownTasks.isEmpty == false else { return nil }
        return (exchange(&seldomMade.orphanTeardowns, with: []), exchange(&seldomMade.teardownTasks, with: .init()))
    }

    /// The teardown failures noted outside `close()`, taken out; nothing made for none.
    mutating func takeTeardownFailures() -> [TeardownError.Failure] {
        guard seldom != nil else { return [] }
        return exchange(&seldomMade.teardownFailures, with: [])
    }

    /// The filter of the keys of `decorators` (see `TypeFilter`), published for resolves
    /// that take no lock (`PublishedTable.decoratedTypes`).
    private(set) var decoratedTypes: UInt64 = 0

    /// The list of the decorators added here, as published (see `DecoratorList`): the one
    /// published since they last changed, or a new one, published now. Unretained: the table
    /// keeps every list it publishes as long as the injector lives.
    func decoratorList() -> Unmanaged<DecoratorList> {
        ready.decoratorList(of: decorators)
    }

    /// Stores `decorator` as the last of `key`'s, noted in the filter first; the published
    /// list, which lacks it, is withdrawn.
    mutating func add(_ decorator: Decorator, for key: DependencyKey) {
        let bits = TypeFilter.bits(of: key.typeID)
        decoratedTypes |= bits
        ready.noteDecorated(bits)
        decorators.append(decorator, for: key)
        ready.withdrawDecoratorList()
    }

    /// Takes out the decorators of `key` that `installation` added, and returns them (the
    /// filter keeps their bits: a false "maybe" finds no decorator); the published list,
    /// which holds them, is withdrawn (and kept: a run may be applying it).
    mutating func removeDecorators(of key: DependencyKey, addedBy installation: ObjectIdentifier) -> [Decorator] {
        let removed = decorators.remove(of: key, addedBy: installation)
        if !removed.isEmpty { ready.withdrawDecoratorList() }
        return removed
    }

    /// The observation hook and the recorded edges (see `Diagnostics/`).
    var diagnostics = RegistryDiagnostics() {
        // An observed resolve reads a table that carries the hook (see `PublishedTable`).
        didSet {
            if diagnostics.instrumentation !== ready.instrumentation {
                ready.observe(through: diagnostics.instrumentation)
            }
        }
    }

    /// The ready values, published for resolves without the lock; kept in step by every write
    /// (all of which go through `replace(_:withSlot:)`).
    let ready: PublishedTable

    /// What a failed resolve looks up to suggest what was meant, kept up to date by every write
    /// (see `RegistryIndex`), so that a miss never walks every key.
    private(set) var index = RegistryIndex()

    /// The values this injector keeps for registrations that other injectors hold (see
    /// `KeptValues`), under the same lock: an opened scope has one lock. Empty but in an
    /// opened scope or a child that keeps its own singletons.
    var kept: KeptValues

    /// `scopeOpenedAt`: where the scope was opened, for the report of one released unclosed.
    init(ready: PublishedTable, scopeOpenedAt site: DeclarationSite? = nil) {
        self.ready = ready
        kept = KeptValues(openedAt: site)
    }

    private func slot(_ key: DependencyKey) -> Slot? {
        guard let name = key.name else { return unnamed[key.typeID] }
        return named[key.typeID]?[name]
    }

    /// Whether something is stored under `key` (its entry not copied out).
    func contains(_ key: DependencyKey) -> Bool {
        slot(key) != nil
    }

    subscript(key: DependencyKey) -> Entry? {
        slot(key)?.entry
    }

    /// Whether `registration` is what is stored under its key (itself, or as a stand-in).
    func stores(_ registration: Registration) -> Bool {
        guard case .factory(let current, _)? = self[registration.key] else { return false }
        return registration.isStored(as: current)
    }

    /// Stores `entry` under `key` (removes what is there for `nil`) and returns the entry it
    /// replaces (see `replace(_:withSlot:)`).
    @discardableResult
    mutating func replace(_ key: DependencyKey, with entry: Entry?) -> Entry? {
        replace(key, withSlot: entry.map(Slot.make))?.entry
    }

    /// How many slot writes this registry has had: what is worked out from its slots (a
    /// collection's present elements, see `CollectionContents.gathered`) holds while it is unchanged.
    private(set) var slotWrites = 0

    /// Stores `slot` under `key` (removes what is there for `nil`) and returns the slot it
    /// replaces: one lookup, where `exchange(&self[key], with:)` makes two. Every write of a
    /// slot comes through here, which keeps the index and the published table in step.
    @discardableResult
    mutating func replace(_ key: DependencyKey, withSlot slot: Slot?) -> Slot? {
        slotWrites &+= 1
        let replaced: Slot?
        // Whether the type got its first key, or lost its last one, in the table written.
        let tableChanged: Bool
        if let name = key.name {
            let table: (replaced: Slot?, changed: Bool, isEmpty: Bool) = Self.store(
                slot, named: name, in: &named[key.typeID, default: [:]])
            if table.isEmpty { named[key.typeID] = nil }
            (replaced, tableChanged) = (table.replaced, table.changed)
            if tableChanged, unnamed[key.typeID] == nil { index.typesChanged() }
        } else {
            replaced =
                slot.map { unnamed.updateValue($0, forKey: key.typeID) } ?? unnamed.removeValue(forKey: key.typeID)
            tableChanged = (replaced == nil) != (slot == nil)
            if tableChanged, named[key.typeID] == nil { index.typesChanged() }
        }
        index.replace(replaced, with: slot, under: key)
        // The published table holds what is registered, no more: changed in place, under
        // each slot's own key on both sides. The caller's may be an equal name in other bytes
        // (a bridged or reserved string, a canonical equivalent; a failed `install` putting
        // back an entry under the key it replaced), which the registry's dictionaries find and
        // the table's probe does not: a removal looks an entry up under the slot's key.
        if let replaced, replaced.isPublished { ready.remove(replaced.key) }
        if let slot {
            ready.noteHeld(key.typeID)
            if let published = slot.published { ready.insert(slot.key, published) }
        }
        return replaced
    }

    /// Puts `slot` under `name` in one type's table of named slots (removes it, if `nil`): what
    /// it replaces, whether the table went from empty to not or back, and whether it is empty.
    private static func store(
        _ slot: Slot?,
        named name: String,
        in table: inout [String: Slot]
    ) -> (replaced: Slot?, changed: Bool, isEmpty: Bool) {
        let wasEmpty = table.isEmpty
        let replaced = slot.map { table.updateValue($0, forKey: name) } ?? table.removeValue(forKey: name)
        return (replaced, wasEmpty != table.isEmpty, table.isEmpty)
    }

    /// The resolve hot path's lookup: the ready value's slot, unretained (valid while the lock
    /// is held), or `nil` with the reason in `miss`.
    ///
    /// `mutating` only to reach an unnamed slot in place (`values[index]`'s `_modify`), which
    /// saves a retain and release; nothing changes. A miss is a plain `index(forKey:)`: the
    /// key's `_modify` would make room for an insertion.
    mutating func readySlot(_ key: DependencyKey, miss: inout Miss) -> Unmanaged<ReadySlot>? {
        guard let name = key.name else {
            guard let index = unnamed.index(forKey: key.typeID) else { return nil }
            return Self.readySlot(in: &unnamed.values[index], miss: &miss)
        }
        guard var slot = named[key.typeID]?[name] else { return nil }
        return Self.readySlot(in: &slot, miss: &miss)
    }

    private static func readySlot(in slot: inout Slot, miss: inout Miss) -> Unmanaged<ReadySlot>? {
        slot.readySlot(miss: &miss)
    }

    /// Keeps `value` if `registration` is still stored under its key, in a version modified in
    /// place since (`register { … }.teardown { … }` racing a resolve) as that version says;
    /// returns what it replaces. A value whose registration was replaced or removed while its
    /// factory ran goes to the resolve that made it, unkept; its teardown waits for `close()`
    /// (`orphanTeardowns`).
    mutating func cache(_ value: Any, producedBy registration: Registration) -> Entry? {
        guard case .factory(let current, _)? = self[registration.key], current.isModification(of: registration),
            let cache = Cache(keeping: value, producedBy: current)
        else {
            if let teardown = PendingTeardown(of: value, producedBy: registration) { orphanTeardowns.append(teardown) }
            return nil
        }
        return replace(registration.key, with: .factory(current, cache))
    }

    /// The slot of `type`'s registration without a name, if it has one here.
    func unnamed(_ type: ObjectIdentifier) -> Slot? {
        unnamed[type]
    }

    /// The names `type` is registered under here, each with its slot; `nil` when there are none.
    func named(_ type: ObjectIdentifier) -> [String: Slot]? {
        named[type]
    }

    /// Brings the index's simple names up to date with the types registered here (only after
    /// a type got its first key or lost its last one), for a failed resolve.
    mutating func refreshSimpleNames() {
        guard index.simpleNames.version != index.typesVersion else { return }
        var types: [ObjectIdentifier: any Any.Type] = [:]
        for (id, slot) in unnamed { types[id] = slot.key.type }
        for (id, table) in named where types[id] == nil {
            if let slot = table.first?.value { types[id] = slot.key.type }
        }
        index.simpleNames = SimpleNames(of: types, version: index.typesVersion, reusing: index.simpleNames)
    }

    /// How many registrations there are.
    var count: Int { named.values.reduce(unnamed.count) { $0 + $1.count } }

    /// Whether there is none (most opened scopes: they close with nothing of their own).
    var isEmpty: Bool { unnamed.isEmpty && named.isEmpty }

    /// Every registration's key with its entry, for diagnostics.
    var entries: [(key: DependencyKey, entry: Entry)] {
        var found: [(key: DependencyKey, entry: Entry)] = []
        for slot in unnamed.values { found.append((slot.key, slot.entry)) }
        for table in named.values {
            for slot in table.values { found.append((slot.key, slot.entry)) }
        }
        return found
    }
}

extension Registry {
    /// What few registries write: modules, installations, teardowns let go outside `close()`,
    /// collections, initializer parameters, decorators. Apart, `nil`
    /// in most registries (an opened scope's, a child's), made by the first write of any of it:
    /// inline, each empty collection was released with every registry.
    struct Seldom {
        /// The module types installed, or being installed, into this injector: installing one
        /// again is a no-op, or waits for the installation in progress.
        var modules = [ObjectIdentifier: ModuleState]()
        /// Which installation each waiting installation waits for (see `Installation.claim(_:)`).
        /// A key outlives no waiter: the installation that `claim` names waits at once, in a call
        /// on itself, which removes the entry before it returns.
        var installationWaits = [ObjectIdentifier: Installation]()
        /// The teardowns of values made for a registration that was replaced or removed while
        /// its factory ran: handed to their resolves, kept by nobody, torn down by `close()`.
        var orphanTeardowns: [PendingTeardown] = []
        /// Teardowns that failed outside `close()` (on a replacement, an unregistration or a
        /// reset), for the next `close()` to throw.
        var teardownFailures: [TeardownError.Failure] = []
        /// The tasks running asynchronous teardowns of values let go outside `close()`, which
        /// `close()` awaits; each removes itself when done, so a long-lived server keeps none.
        var teardownTasks = [UInt64: Task<Void, Never>]()
        /// Numbers `teardownTasks`.
        var teardownTasksStarted: UInt64 = 0
        /// The collections this injector declares or contributes to, by the collection's key
        /// (`[T]`, `[K: T]`): their elements, each a registration of its own (see `Collections/`).
        var collections = [DependencyKey: CollectionContents]()
        /// The parameter keys of the initializers registered here (`register(_:initializer:)`), by
        /// the registration's key, for `graph()`: edges known before any resolve.
        var initializerParameters = [DependencyKey: [DependencyKey]]()
        /// The decorators added here, by key, each key's in the order they were added (see
        /// `Decorators/`): they wrap what this injector and its descendants make for the key.
        /// Published for factory runs as a `DecoratorList` (see `decoratorList()`).
        var decorators = Decorators()
    }
}

extension Registry {
    /// An entry as the tables hold it: one reference, so that a lookup copies a pointer, not
    /// the entry. Immutable: a changed entry gets a new slot. A factory that has produced
    /// nothing yet is its registration alone, so that registering allocates nothing more.
    enum Slot {
        /// A factory with nothing kept: a transient, or a singleton not created yet.
        case pending(Registration)
        /// An instance or a created singleton.
        case ready(ReadySlot)
        /// A `.weak` registration, whose value is read under the singleton creation's lock
        /// (the reference can let go any time).
        case weak(WeakSlot)

        /// The slot for `entry`.
        static func make(_ entry: Entry) -> Slot {
            switch entry {
            case .instance(let value, _, _), .factory(_, .strong(let value, _, _)):
                .ready(ReadySlot(entry, value: value))
            case .factory(let registration, .empty): .pending(registration)
            case .factory(_, .weak): .weak(WeakSlot(entry))
            }
        }

        var entry: Entry {
            switch self {
            case .pending(let registration): .factory(registration, .empty)
            case .ready(let slot): slot.entry
            case .weak(let slot): slot.entry
            }
        }

        /// The key the slot is stored under.
        var key: DependencyKey {
            switch self {
            case .pending(let registration): registration.key
            case .ready(let slot): slot.entry.key
            case .weak(let slot): slot.entry.key
            }
        }

        /// The ready slot, or `nil` with the reason in `miss`.
        func readySlot(miss: inout Miss) -> Unmanaged<ReadySlot>? {
            switch self {
            case .ready(let slot): return .passUnretained(slot)
            case .pending(let registration): miss = .pending(registration)
            case .weak(let slot): if case .factory(let registration, _) = slot.entry { miss = .pending(registration) }
            }
            return nil
        }

        /// What a published table holds for a slot (see `published`).
        typealias Published = (owner: AnyObject, typed: AnyObject?, transient: Registration?)

        /// Whether a published table holds this slot: a ready value, or a transient's plain
        /// factory (see `PublishedTable`).
        var isPublished: Bool { published != nil }

        /// What a published table holds for this slot: the object it retains (the `ReadySlot`,
        /// or a published transient's registration), a ready slot's `typed` box, and the
        /// transient's registration; `nil` when no table holds the slot.
        var published: Published? {
            switch self {
            case .ready(let slot): (slot, slot.typed, nil)
            case .pending(let registration) where registration.isPublishedFactory: (registration, nil, registration)
            case .pending, .weak: nil
            }
        }

        /// The dynamic type of the value the slot holds (see `Entry.readyType`).
        var readyType: ObjectIdentifier? {
            switch self {
            case .ready(let slot): ObjectIdentifier(type(of: slot.value))
            case .pending: nil
            case .weak(let slot): slot.entry.readyType
            }
        }
    }

    /// The slot of an instance or a created singleton.
    final class ReadySlot {
        let entry: Entry
        let value: Any
        /// The value in a `ReadyValue` of the registered type, when that is the value's own
        /// type (a class or struct registered as itself, not as a protocol): a published
        /// table hands it out with no cast (see `ProtectedSlot`).
        let typed: AnyObject?

        init(_ entry: Entry, value: Any) {
            self.entry = entry
            self.value = value
            typed = Self.typed(value, as: entry.key.typeID)
        }

        /// `value` (the `Any`, opened) in a `ReadyValue<Value>`, if `Value` is the type `key` names.
        private static func typed<Value>(_ value: Value, as key: ObjectIdentifier) -> AnyObject? {
            ObjectIdentifier(Value.self) == key ? ReadyValue(value) : nil
        }

        /// The value as a `T`, copied once, straight into the caller's result.
        @inline(__always)
        func value<T>(as type: T.Type, key: DependencyKey) throws(InjectionError) -> T {
            // A local, so that `cast` opens it: the stored property would reach it unopened.
            let value: Any = value
            return try DependencyInjector.cast(value, to: type, key: key)
        }

        /// `value(of:as:key:)`, copied out of the `typed` box, with no cast, when `T` is the
        /// value's own type (an observed resolve, which the published table's box does not reach).
        static func typedValue<T>(of slot: Unmanaged<ReadySlot>, as type: T.Type, key: DependencyKey)
            throws(InjectionError) -> T
        {
            guard key.typeID == ObjectIdentifier(T.self),
                let typed = slot._withUnsafeGuaranteedRef({ $0.typed.map(Unmanaged.passUnretained) })
            else {
                return try value(of: slot, as: T.self, key: key)
            }
            // Safe: a slot has a `typed` box only when the value's type is the key's, `T`.
            return typed._withUnsafeGuaranteedRef { unsafeDowncast($0, to: ReadyValue<T>.self).value }
        }

        /// `value(as:)` of `slot`, not retained (the caller holds its table's lock).
        static func value<T>(of slot: Unmanaged<ReadySlot>, as type: T.Type, key: DependencyKey)
            throws(InjectionError) -> T
        {
            do {
                return try slot._withUnsafeGuaranteedRef { slot in try slot.value(as: type, key: key) }
            } catch {
                // `_withUnsafeGuaranteedRef` rethrows untyped; only `cast` throws, on a mismatch.
                throw error as? InjectionError ?? .factoryFailed(key, path: [key], underlying: error)
            }
        }
    }

    /// The slot of a `.weak` registration.
    final class WeakSlot {
        let entry: Entry

        init(_ entry: Entry) {
            self.entry = entry
        }
    }
}

/// Why a lookup in one injector found no value ready to hand out.
///
/// Reported as a value, never thrown: Swift Testing records a backtrace for every thrown
/// error, so a resolve that succeeds throws and catches nothing, even inside the library.
enum Miss {
    /// Nothing is registered under the key in the injector asked.
    case absent
    /// A factory has to run first: a transient, or a singleton not created yet.
    case pending(Registration)
}

/// What an injector stores under a key.
enum Entry {
    /// A value registered with `register(_:as:name:fileID:line:)`: an already created singleton.
    case instance(Any, DependencyKey, site: RegistrationSite)
    /// A factory, with what it has produced so far for its scope.
    case factory(Registration, Cache)

    var key: DependencyKey {
        switch self {
        case .instance(_, let key, _): key
        case .factory(let registration, _): registration.key
        }
    }

    /// The module-qualified name of the module that made the registration, if any.
    var module: String? { site.module }

    /// Where the registration was made.
    var site: RegistrationSite {
        switch self {
        case .instance(_, _, let site): site
        case .factory(let registration, _): registration.site
        }
    }

    /// Whether `install` must create the value before it returns.
    var isEager: Bool {
        guard case .factory(let registration, _) = self else { return false }
        return registration.scope == .eagerSingleton
    }

    /// The dynamic type of the value it holds: an instance, a created singleton, a weak
    /// instance (recorded when it was created, so that it is known after the value is gone).
    var readyType: ObjectIdentifier? {
        switch self {
        case .instance(let value, _, _), .factory(_, .strong(let value, _, _)): ObjectIdentifier(type(of: value))
        case .factory(_, .weak(let reference)): reference.valueType
        case .factory(_, .empty): nil
        }
    }

    /// The value a resolve can return without running a factory.
    var readyValue: Any? {
        switch self {
        case .instance(let value, _, _): value
        case .factory(_, let cache): cache.value
        }
    }
}

/// What a singleton or weak registration has produced.
enum Cache {
    case empty
    /// A value kept strongly, with its teardown if its registration has one, and its place in
    /// creation order, which a teardown attached later closes it in (see `Registered.teardown`).
    case strong(Any, PendingTeardown?, order: UInt64)
    case weak(WeakReference)

    /// How `registration`'s scope keeps `value`; `nil` when it keeps nothing: a transient, or a
    /// `.weak` value that is not a class instance (only those can be held weakly; others are
    /// made anew). Only strongly kept values are torn down.
    init?(keeping value: Any, producedBy registration: Registration) {
        if registration.scope.isKeptStrongly {
            let order = CreationOrder.next()
            self = .strong(value, PendingTeardown(of: value, producedBy: registration, order: order), order: order)
        } else if registration.scope == .weak, type(of: value) is AnyObject.Type {
            self = .weak(WeakReference(object: value as AnyObject, valueType: ObjectIdentifier(type(of: value))))
        } else {
            return nil
        }
    }

    var value: Any? {
        switch self {
        case .empty: nil
        case .strong(let value, _, _): value
        case .weak(let reference): reference.object
        }
    }
}

struct WeakReference {
    weak var object: AnyObject?
    /// The dynamic type of the object (see `Entry.readyType`).
    let valueType: ObjectIdentifier
}
