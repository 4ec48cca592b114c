extension DependencyInjector {
    /// Every key this injector can resolve, each once: its own registrations and those it
    /// inherits (an override hides the ancestor's registration of the same key), sorted by key.
    ///
    /// ```swift
    /// for info in injector.registrations where !info.isCreated {
    ///     print("not created yet: \(info.key)")
    /// }
    /// ```
    ///
    /// It is a snapshot: registrations made, and singletons created, afterwards are not in it.
    public var registrations: [RegistrationInfo] {
        registrations { .injector($0) }
    }

    /// ``registrations``, each owner shown as `shown` gives it (the injector, or its face).
    func registrations(showingOwnersAs shown: (DependencyInjector) -> RegistrationInfo.Owner) -> [RegistrationInfo] {
        var found: [RegistrationInfo] = []
        var seen: Set<DependencyKey> = []
        // The nearest injectors, on the way up, that keep their own copies of inherited
        // singletons, and scoped values (as the walk of a resolve finds them).
        var keepers = Keepers()
        // The test and preview scopes passed, whose stand-ins answer for what is above them.
        var passedScopes: [(injector: DependencyInjector, scope: TestScope)] = []
        var below: DependencyInjector?
        for current in sequence(first: self, next: \.parent) {
            if let below, let scope = below.testScope { passedScopes.append((below, scope)) }
            below = current
            if keepers.scope == nil, current.opensScope { keepers.scope = current }
            // A key is unique within one injector: `seen` keeps the keys an ancestor may hold
            // too (none when `current` is the root), and is asked only about an ancestor's.
            for (key, entry) in current.registry.withLock({ $0.entries }) {
                if current !== self, seen.contains(key) { continue }
                if current.parent != nil { seen.insert(key) }
                let kind: RegistrationInfo.Kind
                var isCreated = entry.readyValue != nil
                var forwardedTo: DependencyKey?
                var answeredBy: RegistrationInfo.StandIn?
                var decorators: [RegistrationSite] = []
                switch entry {
                case .instance:
                    kind = .instance
                case .factory(let registration, _):
                    // A factory that caches by argument is stored as a transient, but keeps its
                    // values as long as its cache says: listed (and drawn) with that lifetime.
                    kind = .factory(registration.caching?.lifetime ?? registration.scope)
                    forwardedTo = registration.forwardedTo
                    // What answers, as the walk of a resolve screens it (what a test scope holds
                    // is a test's own).
                    var answer = registration
                    if !passedScopes.isEmpty, current.testScope == nil, registration.forwardedTo == nil {
                        let passed = passedScopes.reduce(PassedTestScopes()) { passed, passing in
                            passed.passing(passing.injector, scope: passing.scope, for: key)
                        }
                        answer = passed.answer(for: registration) ?? registration
                        if answer !== registration {
                            answeredBy = answer.isPreviewStandIn(of: registration) ? .preview : .testDouble
                        }
                    }
                    // Below a keeper, an inherited value exists once the keeper has made its copy;
                    // an opened scope keeps its own scoped values with those (see `KeptValues`), and
                    // those of the plain children below it, as the walk finds it (`locate`).
                    let keeper =
                        keepers.keeper(of: registration) ?? (registration.isScoped ? current.enclosingScope : nil)
                    if let keeper, keeper !== current || registration.isScoped {
                        isCreated = keeper.keepsValue(of: answer)
                    }
                    // Decorated by the injector that makes the value (see `decoratedIfAny(_:madeFor:in:isCurrent:)`).
                    let maker = registration.isKept ? keepers.keeper(of: registration) ?? current : self
                    decorators = maker.decorators(of: key).map(\.site)
                }
                let info = RegistrationInfo(
                    key: key, kind: kind, isCreated: isCreated, owner: shown(current), isInherited: current !== self,
                    forwardedTo: forwardedTo, answeredBy: answeredBy, decorators: decorators)
                found.append(info)
            }
            if keepers.singletons == nil, current.keepsOwnSingletons { keepers.singletons = current }
        }
        return DependencyKey.sorted(found, by: \.key)
    }
}
