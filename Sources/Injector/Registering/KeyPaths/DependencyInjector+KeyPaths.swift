extension DependencyInjector {
    /// The dependencies with default values, read and written through this injector.
    ///
    /// ```swift
    /// injector.values.networkProvider = MockNetwork()
    /// let network = injector.values.networkProvider
    /// ```
    public var values: InjectedValues {
        get { InjectedValues(injector: self) }
        set {}  // `values.x = y` has already registered `y` through the subscript
    }

    /// The key-path dependency: the registered value, or the key's default value.
    ///
    /// ```swift
    /// let network = injector.resolve(\.networkProvider)
    /// ```
    ///
    /// `fileID`, `filePath` and `line` (leave the defaults) locate the issue a test records
    /// when a registered factory fails and the default is used instead.
    public func resolve<Value>(
        _ keyPath: KeyPath<InjectedValues, Value>,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line
    ) -> Value {
        let site = DeclarationSite(fileID: fileID, filePath: filePath, line: line)
        return InjectedValues(injector: self, readAt: site)[keyPath: keyPath]
    }

    /// Registers a factory for the key behind `keyPath`, for `scope`.
    ///
    /// ```swift
    /// injector.register(\.networkProvider, scope: .singleton) { r in try LiveNetwork(session: r.resolve()) }
    /// test.register(\.networkProvider) { _ in MockNetwork() }  // or: test.values.networkProvider = MockNetwork()
    /// ```
    ///
    /// If the factory throws, resolving the key path yields the key's default value. Without
    /// a `scope`, the injector's (or the installing module's) default scope applies.
    public func register<Value>(
        _ keyPath: KeyPath<InjectedValues, Value>,
        scope: Scope? = nil,
        fileID: StaticString = #fileID,
        line: UInt = #line,
        factory: @escaping @Sendable (DependencyInjector) throws -> Value
    ) {
        let site = DeclarationSite(fileID: fileID, line: line)
        guard let key = InjectedValues.registeredKey(for: keyPath, at: site) else { return }
        store(scope: scope, fileID: fileID, line: line) { scope, site in
            TypedRegistration(factory, key: key, scope: scope, site: site)
        }
    }
}
