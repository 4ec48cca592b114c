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
    /// that keeps its own copies of inherited singletons (a test scope), whose copies it drops
    /// instead. So `reset` on a plain ``child()`` also
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
        tearDown(try dropValues(ofScope: scope))
    }

    /// `reset(_:)` but the teardowns: those of the values dropped on every level, for the face
    /// to run in one order, latest first (the actor face awaits them).
    func dropValues(ofScope scope: Scope) throws(InjectionError) -> [PendingTeardown] {
        guard scope.isKept, isUsed(scope) else { throw .unknownScope(scope) }
        let resets = { (kept: Scope) in kept == scope || (scope == .singleton && kept == .eagerSingleton) }
        var teardowns: [PendingTeardown] = []
        for current in sequence(first: self, next: \.parent) {
            // The dropped entries leave the lock whole, released here, after it.
            let dropped = current.registry.updateReturning { $0.dropValues(ofScopes: resets) }
            // A value without a teardown is released in its turn too (see `Entry.release`).
            teardowns += dropped.compactMap(\.release)
            // Scoped values are kept by the nearest opened scope; a test scope keeps every value
            // above it, for resolves through it.
            if (scope == .scoped && current.opensScope) || current.keepsOwnSingletons, let kept = current.keptValues {
                teardowns += kept.withLock { $0.dropValues(ofScopes: resets) }.releases
                break
            }
        }
        return teardowns
    }

    /// Drops the value this injector keeps for `type` (under `name`), and only that one: the
    /// next resolve of it through this injector makes a new one. Factory's `reset` of one
    /// factory; ``reset(_:)`` drops a whole scope's.
    ///
    /// ```swift
    /// injector.register(FeatureFlags.self, scope: .singleton) { _ in try FeatureFlags.load() }
    /// try injector.reset(FeatureFlags.self)  // after the flags changed on the server
    /// ```
    ///
    /// Which value is dropped follows the resolve: the one a resolve through this injector
    /// gets, kept by the registration's injector, or by the nearest injector on the way that
    /// keeps its own copy (a test or preview scope, or, for a
    /// ``Scope/scoped`` value, the opened scope). So a test scope's `reset(T.self)` never
    /// reaches the app's value. The value's teardown (``Registered/teardown(_:)``) runs, after
    /// the lock; a resolve that is creating a value meanwhile may still keep it.
    ///
    /// A key that forwards to another (``Registered/implements(_:)``) keeps nothing itself: its
    /// reset drops the value of the registration it forwards to, which every key it answers shares.
    /// Nor does a collection (`register(into:)`), gathered on each resolve: its reset drops the
    /// values its elements keep, those a resolve of it through this injector gathers (a transient
    /// element keeps none), so that the next resolve makes them again.
    ///
    /// - Throws: ``InjectionError/notRegistered(_:path:suggestions:)`` when nothing is
    ///   registered for the key; ``InjectionError/notResettable(_:scope:)`` when its
    ///   registration keeps no value (a registered instance, a transient, a collection none of
    ///   whose elements keeps one).
    public func reset<T>(_ type: T.Type, name: String? = nil) throws(InjectionError) {
        _ = try dropValue(of: type, name: name)
    }

    /// `reset(_:name:)`, which returns the injectors that tore the values down (one, but for a
    /// collection's elements): the actor face awaits their asynchronous teardowns.
    func dropValue<T>(of type: T.Type, name: String?) throws(InjectionError) -> [DependencyInjector] {
        let key = DependencyKey(type, name: name)
        guard let keepers = try dropValue(of: key, forwardedFrom: []) else {
            throw .notRegistered(key, path: [], suggestions: suggestions(for: key, as: T.self))
        }
        return keepers
    }

    /// `dropValue(of:name:)` of `key`, reached through the forwards of `forwards` (the keys
    /// whose forwards led here); `nil` when nothing is registered for it.
    private func dropValue(of key: DependencyKey, forwardedFrom forwards: [DependencyKey]) throws(InjectionError)
        -> [DependencyInjector]?
    {
        // The keepers a resolve's walk would pass (see `locate(_:after:)`).
        var keepers = Keepers()
        for holder in sequence(first: self, next: \.parent) {
            if keepers.scope == nil, holder.opensScope { keepers.scope = holder }
            switch holder.registry.withLock({ $0[key] }) {
            case .factory(let registration, _)?:
                let keeper =
                    keepers.keeper(of: registration) ?? (registration.isScoped ? holder.enclosingScope : nil) ?? holder
                // A factory with run-time arguments that keeps a value per argument tuple: with
                // none kept yet, there is nothing to drop.
                if registration.caching != nil {
                    keeper.tearDown(keeper.droppedTuples(of: key))
                    return [keeper]
                }
                guard registration.scope.isKept else {
                    // A forward keeps nothing itself: the value is its implementation's.
                    if let target = registration.forwardedTo, target != key {
                        // Forwards that lead back (a child's forward to its parent's, which
                        // forwards to it): a cycle, as a resolve of the key reports it.
                        let path = forwards + [key, target]
                        if forwards.contains(target) { throw .circularDependency(path: path) }
                        do throws(InjectionError) {
                            guard let keepers = try dropValue(of: target, forwardedFrom: forwards + [key]) else {
                                throw .notRegistered(target, path: path, suggestions: [])
                            }
                            return keepers
                        } catch .notResettable(_, let scope?) {
                            throw .notResettable(forwards.first ?? key, scope: scope)  // the key reset, as asked
                        }
                    }
                    // A collection keeps nothing itself either: its elements' values are dropped.
                    // (Its notResettable advised registering it with a scope that keeps a value,
                    // which replaces the collection by hand.)
                    if holder.registry.withLock({ $0.collections[key]?.currentGathering(in: $0) })?.registration
                        === registration,
                        let keepers = try dropElementValues(ofCollection: key, forwardedFrom: forwards)
                    {
                        return keepers
                    }
                    throw .notResettable(key, scope: registration.scope)
                }
                // The keeper's own value, or, in its store of kept values, the one of this
                // registration alone: an override's value below the scope, or the app's above
                // it, is another resolve's, and stays.
                var letGo = holder === keeper ? keeper.dropValues(of: key, heldBy: holder) : []
                // …or the test double or preview stand-in a test or preview scope made in its place.
                letGo += keeper.keptValues?.withLock { $0.dropValues(madeFor: registration) }.teardowns ?? []
                keeper.tearDown(letGo)
                return [keeper]
            case .instance?:
                throw .notResettable(key, scope: nil)
            case nil:
                if keepers.singletons == nil, holder.keepsOwnSingletons { keepers.singletons = holder }
            }
        }
        return nil
    }

    /// Drops the values that the elements of the collection `key` keep, as a reset of each
    /// element's key through this injector would (the elements a resolve of the collection here
    /// gathers: in a map, the one under each map key that wins); returns their keepers, or `nil`
    /// when none of them keeps a value (every element transient, or none). An ancestor's
    /// registration of the collection by hand, whose value comes first, is not an element.
    private func dropElementValues(ofCollection key: DependencyKey, forwardedFrom forwards: [DependencyKey])
        throws(InjectionError) -> [DependencyInjector]?
    {
        let levels = collectionElements(key).levels
        var keys: [DependencyKey] = []
        var mapKeys: Set<AnyHashable> = []
        // Innermost first, as a map's gathering lets a descendant's element replace an ancestor's.
        for element in levels.reversed().joined() {
            if let mapKey = element.mapKey, !mapKeys.insert(mapKey).inserted { continue }
            keys.append(element.key)
        }
        var keepers: [DependencyInjector] = []
        // A transient element keeps nothing: passed over, not asked (its reset would throw
        // `notResettable`, and a reset that succeeds throws and catches nothing).
        for elementKey in keys {
            guard case .factory(let element, _)? = lookup(elementKey)?.entry, element.isKept else { continue }
            keepers += try dropValue(of: elementKey, forwardedFrom: forwards + [key]) ?? []
        }
        return keepers.isEmpty ? nil : keepers
    }

    /// Drops what this injector keeps for `key` held by `holder`: its own value when it is the
    /// holder, else its copies of an ancestor's (see `KeptValues`), and the values it caches by
    /// argument for the key; returns their teardowns. The values are released after the lock.
    func dropValues(of key: DependencyKey, heldBy holder: DependencyInjector) -> [PendingTeardown] {
        let cached = droppedTuples(of: key)
        if holder === self {
            return cached + (registry.updateReturning { $0.dropValue(of: key) }?.teardown.map { [$0] } ?? [])
        }
        return cached + (keptValues?.withLock { $0.dropValues(of: key) }.teardowns ?? [])
    }

    /// Lets go of the values this injector keeps per argument tuple for `key` (see
    /// `KeptValues.dropTuples(of:)`); returns their teardowns, in creation order. The values
    /// are released after the lock.
    func droppedTuples(of key: DependencyKey) -> [PendingTeardown] {
        registry.withLock { $0.dropTuples(of: key) }.compactMap(\.teardown).sorted { $0.order < $1.order }
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
    /// Drops the values this injector keeps for `scope`, as ``DependencyInjector/reset(_:)`` does:
    /// `try await server.reset(.session)`.
    public func reset(_ scope: Scope) async throws(InjectionError) {
        // Every level's, latest first, awaited before it returns.
        await core.tearDownAwaiting(try core.dropValues(ofScope: scope))
    }

    /// Drops the value this injector keeps for `type` (under `name`), and only that one; see
    /// ``DependencyInjector/reset(_:name:)``.
    public func reset<T>(_ type: T.Type, name: String? = nil) async throws(InjectionError) {
        for keeper in try core.dropValue(of: type, name: name) { await keeper.teardownsFinished() }
    }
}

extension Registry {
    /// Forgets the value kept for `key`, if any; returns it, to be released after the unlock.
    mutating func dropValue(of key: DependencyKey) -> Cache? {
        guard case .factory(let registration, let cache)? = self[key] else { return nil }
        if case .empty = cache { return nil }
        replace(key, with: .factory(registration, .empty))
        return cache
    }

    /// Forgets the values kept for the registrations whose scope `resets`; returns them, to be
    /// released after the unlock.
    ///
    /// A weak value is not read here: the read makes a strong reference, which is the last one
    /// if its holder lets go meanwhile, and would then run the value's `deinit` under the lock.
    mutating func dropValues(ofScopes resets: (Scope) -> Bool) -> [Entry] {
        guard !isEmpty else { return [] }
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

extension Registry {
    /// Lets go of the values kept per argument tuple for `key`: of the registration stored
    /// here for it, when there is one (another's are an installation's, to put back if it
    /// fails), else of whichever registration made them (copies of an ancestor's).
    mutating func dropTuples(of key: DependencyKey) -> [KeptValues.Tuple] {
        guard contains(key) else { return kept.dropTuples(of: key) }
        guard case .factory(let stored, _)? = self[key] else { return [] }
        return kept.dropTuples(of: key, madeBy: stored)
    }
}
