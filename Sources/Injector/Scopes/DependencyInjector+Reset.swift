extension DependencyInjector {
    /// Drops the values this injector keeps for `scope`: the next resolve of each of its
    /// registrations makes a new one.
    ///
    /// ```swift
    /// extension Scope {
    ///     static let session = Scope.named("session")
    /// }
    /// injector.register(Cart.self, scope: .session) { _ in Cart() }
    /// try injector.reset(.session)  // on logout
    /// try injector.reset(.singleton)  // in a test: every singleton, eager ones included, afresh
    /// ```
    ///
    /// The next resolve *through this injector* makes new values: it drops the values of this
    /// injector's registrations of that scope and of its ancestors' up to the nearest injector
    /// that keeps its own copies of inherited singletons (a ``ChildSingletons/own`` child, such
    /// as a test scope), whose copies it drops instead. So `reset` on a plain ``child()`` also
    /// resets what its parent shares with it (and with the child's siblings), while a test
    /// scope's `reset` never reaches the app's values. A resolve that is creating a value while
    /// the reset runs may still keep it. The values are released after the injector's lock, so
    /// their `deinit`s may use the injector; their teardowns (``Registered/teardown(_:)``) run
    /// then too, latest first.
    ///
    /// - Throws: ``InjectionError/unknownScope(_:)`` for a scope that keeps nothing
    ///   (``Scope/transient``, ``Scope/graph``), or a named scope that no registration of this
    ///   injector or its ancestors uses.
    public func reset(_ scope: Scope) throws(InjectionError) {
        guard scope.isKept, isUsed(scope) else { throw .unknownScope(scope) }
        let resets = { (kept: Scope) in kept == scope || (scope == .singleton && kept == .eagerSingleton) }
        var injector: DependencyInjector? = self
        while let current = injector {
            let dropped = current.registry.updateReturning { $0.dropValues(ofScopes: resets) }
            current.tearDown(dropped.compactMap(\.teardown))
            // Scoped values are kept by the nearest opened scope.
            if scope == .scoped, let copies = current.scopedValues {
                let droppedCopies = copies.withLock { $0.dropValues() }
                current.tearDown(droppedCopies.compactMap(\.cache.teardown))
                return
            }
            if let copies = current.inheritedSingletons {
                let droppedCopies = copies.withLock { $0.dropValues(ofScopes: resets) }
                current.tearDown(droppedCopies.compactMap(\.cache.teardown))
                return  // the keeper of every value above it, for resolves through it
            }
            injector = current.parent
        }
    }

    /// Whether a registration of this injector or an ancestor has `scope`.
    private func isUsed(_ scope: Scope) -> Bool {
        guard case .named = scope else { return true }
        var injector: DependencyInjector? = self
        while let current = injector {
            let uses = current.registry.withLock { registry in
                registry.entries.contains {
                    if case .factory(let registration, _) = $0.entry { registration.scope == scope } else { false }
                }
            }
            if uses { return true }
            injector = current.parent
        }
        return false
    }
}

extension AsyncDependencyInjector {
    /// Drops the values this injector keeps for `scope`; see ``DependencyInjector/reset(_:)``.
    ///
    /// ```swift
    /// try await server.reset(.session)
    /// ```
    public func reset(_ scope: Scope) async throws(InjectionError) {
        try core.reset(scope)
        await teardownsFinished()  // the values' asynchronous teardowns, before it returns
    }
}

extension Registry {
    /// Forgets the values kept for the registrations whose scope `resets`; returns them, to be
    /// released after the unlock.
    ///
    /// A weak value is not read here: the read makes a strong reference, which is the last one
    /// if its holder lets go meanwhile, and would then run the value's `deinit` under the lock.
    mutating func dropValues(ofScopes resets: (Scope) -> Bool) -> [Entry] {
        var dropped: [Entry] = []
        for (key, entry) in entries {
            guard case .factory(let registration, let cache) = entry, resets(registration.scope) else { continue }
            if case .empty = cache { continue }
            dropped.append(entry)
            replace(key, with: .factory(registration, .empty))
        }
        return dropped
    }
}
