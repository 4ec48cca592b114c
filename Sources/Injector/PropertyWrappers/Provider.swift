/// A property that registers its value into an injector, so that `@Inject` elsewhere finds it.
///
/// ```swift
/// final class AppModule {
///     @Provider var api: APIClient = LiveAPIClient()                     // registered as APIClient
///     @Provider(name: "baseURL") var baseURL = "https://api.example.com"  // registered by name
///     @Provider(scope: .singleton) var database: Database = SQLiteDatabase()
/// }
/// let module = AppModule()  // registration happens here, in the owner's initialiser
/// ```
///
/// The value is registered under the property's declared type (`APIClient` above, not
/// `LiveAPIClient`) and `name:`, into `injector:` or ``DependencyInjector/current``, when the
/// owner is initialised. Each new owner registers again, replacing the earlier registration:
/// a module type is meant to be created once, at start-up. Assigning to the property
/// registers the new value for later resolves; earlier ones keep the old value.
///
/// With `scope:`, the expression after `=` becomes a factory, run by the injector when the
/// dependency is first resolved (`.singleton`), on every resolve (`.transient`), or while it is
/// held (`.weak`), on whichever thread resolves (so it must be `@Sendable`). Reading the
/// property then resolves it from the injector.
@propertyWrapper
public struct Provider<Value> {
    @usableFromInline var storage: Storage
    @usableFromInline let injector: DependencyInjector
    @usableFromInline let name: String?

    @usableFromInline
    enum Storage {
        /// The value as registered: reading the property returns it.
        case value(Value)
        /// A factory registered for a scope: reading the property resolves it. Where the
        /// property is declared, for a failure's message, boxed: a case as small as a
        /// reference keeps the wrapper cheap to copy on every read.
        case registeredFactory(BoxedDeclarationSite)
        /// A factory refused by a sealed injector when the owner was initialised: reading the
        /// property fails with ``InjectionError/sealed(_:)``, which says so (not that nothing is
        /// registered).
        case refused(BoxedDeclarationSite)
        /// A value refused by a sealed injector when the owner was initialised: reading the
        /// property returns it, as it does after an assignment the injector refuses (the
        /// property holds its value); `$property` has the refusal, which the observer heard of.
        case refusedValue(Value)
    }

    /// Registers `wrappedValue` under `Value` (and `name`) into `injector`, or into
    /// ``DependencyInjector/current`` when `injector` is `nil`.
    ///
    /// `fileID` and `line` (leave the defaults) say where it was registered, in messages.
    public init(
        wrappedValue: Value,
        name: String? = nil,
        injector: DependencyInjector? = nil,
        fileID: StaticString = #fileID,
        line: UInt = #line
    ) {
        self.injector = injector ?? DependencyInjector.current
        self.name = name
        let stored = self.injector.store(
            instance: wrappedValue, for: DependencyKey(Value.self, name: name), fileID: fileID, line: line)
        storage = stored ? .value(wrappedValue) : .refusedValue(wrappedValue)
    }

    /// Registers the initial-value expression as a factory for `scope`, under `Value` (and
    /// `name`), into `injector` or ``DependencyInjector/current``; it runs when needed, not now.
    ///
    /// `fileID` and `line` (leave the defaults) name the declaration in a failure's message.
    public init(
        wrappedValue makeValue: @autoclosure @escaping @Sendable () -> Value,
        scope: Scope,
        name: String? = nil,
        injector: DependencyInjector? = nil,
        fileID: StaticString = #fileID,
        line: UInt = #line
    ) {
        self.init(
            scope: scope, name: name, injector: injector, factory: { _ in makeValue() }, fileID: fileID, line: line)
    }

    /// Registers the initial-value expression as a factory that runs on the main actor, for
    /// `mainActorScope`, under `Value` (and `name`): the scoped form for a main-actor type
    /// (in an Xcode 26 app target, every type), whose expression the plain form cannot run.
    ///
    /// ```swift
    /// final class AppProviders {
    ///     @Provider(mainActorScope: .singleton) var store: CartStore = CartStore()
    /// }
    /// ```
    ///
    /// Reading the property resolves the value, as the scoped form does; off the main actor,
    /// the resolve fails with ``InjectionError/requiresMainActor(_:path:)``.
    public init(
        wrappedValue makeValue: @autoclosure @escaping @MainActor () -> Value,
        mainActorScope scope: Scope,
        name: String? = nil,
        injector: DependencyInjector? = nil,
        fileID: StaticString = #fileID,
        line: UInt = #line
    ) {
        self.init(
            mainActorScope: scope, name: name, injector: injector, factory: { _ in makeValue() }, fileID: fileID,
            line: line)
    }

    /// Registers `factory`, which runs on the main actor, for `mainActorScope` (without one,
    /// the injector's default scope), under `Value` (and `name`): the factory form of
    /// ``init(wrappedValue:mainActorScope:name:injector:fileID:line:)``.
    ///
    /// ```swift
    /// @Provider(mainActorScope: .singleton, factory: { r in try CartStore(catalog: r.resolve()) })
    /// var store: CartStore
    /// ```
    public init(
        mainActorScope scope: Scope? = nil,
        name: String? = nil,
        injector: DependencyInjector? = nil,
        factory: @escaping @MainActor (DependencyInjector) throws -> Value,
        fileID: StaticString = #fileID,
        line: UInt = #line
    ) {
        self.injector = injector ?? DependencyInjector.current
        self.name = name
        let registered = self.injector.mainActor.register(
            Value.self, name: name, scope: scope, fileID: fileID, line: line, factory: factory)
        storage = Self.storage(
            of: registered, in: self.injector, declaredAt: DeclarationSite(fileID: fileID, line: line))
    }

    /// Registers `factory` for `scope` (without one, the injector's default scope), under
    /// `Value` (and `name`), into `injector` or ``DependencyInjector/current``: the form for
    /// values built from other dependencies.
    ///
    /// ```swift
    /// final class AppModule {
    ///     @Provider(scope: .singleton, factory: { r in try Database(config: r.resolve()) })
    ///     var database: Database
    /// }
    /// ```
    public init(
        scope: Scope? = nil,
        name: String? = nil,
        injector: DependencyInjector? = nil,
        factory: @escaping @Sendable (DependencyInjector) throws -> Value,
        fileID: StaticString = #fileID,
        line: UInt = #line
    ) {
        self.injector = injector ?? DependencyInjector.current
        self.name = name
        let registered = self.injector.register(
            Value.self, name: name, scope: scope, fileID: fileID, line: line, factory: factory)
        storage = Self.storage(
            of: registered, in: self.injector, declaredAt: DeclarationSite(fileID: fileID, line: line))
    }

    /// What a property whose factory registration is `registered` reads: that registration,
    /// unless the injector (sealed) refused it.
    private static func storage(
        of registered: Registered<Value>,
        in injector: DependencyInjector,
        declaredAt site: DeclarationSite
    ) -> Storage {
        let site = BoxedDeclarationSite(site)
        // Refused only if sealed: a registration another thread made meanwhile replaced this one.
        let isRefused = !injector.stores(registered.registration) && injector.registry.withLock(\.isSealed)
        return isRefused ? .refused(site) : .registeredFactory(site)
    }

    /// The registered value. Assigning registers the new value in its place; an assignment a
    /// sealed injector refuses changes nothing (an observer hears of the refusal). A value the
    /// injector was sealed against when the owner was initialised is read all the same
    /// (`$property` has the refusal).
    ///
    /// With a `scope:`, reading resolves the value; if that fails (the registration was
    /// removed, or the factory's dependencies are missing) the program stops with the error's
    /// description, as ``Inject`` does. `$property` gives the error instead.
    public var wrappedValue: Value {
        // Inlinable, so that a read is specialised for `Value` in the owner's code (in the
        // library's generic code, it looked up type metadata on every read).
        @inlinable
        get {
            switch storage {
            case .value(let value), .refusedValue(let value):
                return value
            case .registeredFactory(let site):
                do {
                    return try injector.resolve(Value.self, name: name)
                } catch {
                    Self.stopReading(after: error, declaredAt: site, searching: injector)
                }
            case .refused(let site):
                Self.stopReading(
                    after: .sealed(DependencyKey(Value.self, name: name)), declaredAt: site, searching: injector)
            }
        }
        @inlinable
        set {
            // Refused by a sealed injector: the property goes on reading what the injector has.
            if injector.registerAssigned(newValue, name: name) { storage = .value(newValue) }
        }
    }

    /// The registered value, or for a scoped factory the resolved one, or the typed error.
    public var projectedValue: Result<Value, InjectionError> {
        @inlinable
        get {
            switch storage {
            case .value(let value): .success(value)
            case .registeredFactory: injector.result(Value.self, name: name)
            case .refused, .refusedValue: .failure(.sealed(DependencyKey(Value.self, name: name)))
            }
        }
    }

    /// Stops the program: the property, declared at `site`, was read after its resolution
    /// from `injector` failed with `error`. Apart, so that the inlined getter only calls it.
    @usableFromInline
    static func stopReading(
        after error: InjectionError, declaredAt site: BoxedDeclarationSite, searching injector: DependencyInjector
    ) -> Never {
        // Recorded on the test first, as a `@LazyInject` read's failure is: the stop's report,
        // in a parallel run, names no test.
        TestIssueRecorder.report(error, of: "@Provider", declaredAt: site.site, searchingIn: injector)
        Injector.stopReading("@Provider", declaredAt: site.site, after: error, searched: injector.searchedDescription)
    }
}

extension Provider: Sendable where Value: Sendable {}
extension Provider.Storage: Sendable where Value: Sendable {}

/// A `DeclarationSite` in a box, for `Provider.Storage`: one reference instead of the site's
/// five words.
@usableFromInline
final class BoxedDeclarationSite: Sendable {
    let site: DeclarationSite

    init(_ site: DeclarationSite) {
        self.site = site
    }
}
