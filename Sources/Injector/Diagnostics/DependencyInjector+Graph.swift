extension DependencyInjector {
    /// The dependencies seen so far, as a graph you can inspect or render with Graphviz.
    ///
    /// ```swift
    /// try injector.verify()
    /// print(injector.graph().dot)
    /// ```
    ///
    /// Nodes are every key this injector can resolve (see ``registrations``). Edges are the
    /// resolves that factories made while this injector (or an ancestor) was verified
    /// (``verify()``) or observed (``observe(_:)``); recording costs nothing otherwise. For the
    /// whole graph, call ``verify()`` first. Resolves outside factories are not edges, and
    /// neither is an optional (an initializer's `T?` parameter, `@OptionalInject`) while nothing
    /// registers its `T`: it resolves to `nil`, which is no missing registration.
    public func graph() -> DependencyGraph {
        var edges: Set<DependencyGraph.Edge> = []
        var collections: Set<DependencyKey> = []
        var below: [DependencyInjector] = []
        for injector in sequence(first: self, next: \.parent) {
            // An ancestor's edge from a key that an injector below it registers again is not one
            // a resolve through this injector makes: that registration overrides it.
            let recorded = injector.registry.withLock { $0.diagnostics.edges }
            for edge in recorded where !below.contains(where: { $0.registry.withLock { $0.contains(edge.from) } }) {
                if let to = drawnDependency(edge.to) { edges.insert(.init(from: edge.from, to: to)) }
            }
            below.append(injector)
            collections.formUnion(injector.registry.withLock { $0.collections.keys })
            // An initializer's parameters are known from its registration, if a resolve through
            // this injector uses it (a nearer injector's registration of the key overrides it).
            let initializers = injector.registry.withLock { registry in
                registry.initializerParameters.filter { key, _ in registry.contains(key) }
            }
            for (key, parameters) in initializers where lookup(key)?.owner === injector {
                edges.formUnion(parameters.compactMap(drawnDependency).map { DependencyGraph.Edge(from: key, to: $0) })
            }
        }
        // A collection gathers the elements a resolve through this injector would, whether or
        // not one has run yet; not one that a registration by hand replaced, which gathers none.
        for collection in collections where gathers(collection) {
            for element in collectionElements(collection).levels.joined() {
                edges.insert(.init(from: collection, to: element.key))
            }
        }
        let registrations = registrations
        // A forwarded key resolves its target, whether or not a resolve has been seen yet.
        for registration in registrations {
            if let target = registration.forwardedTo { edges.insert(.init(from: registration.key, to: target)) }
        }
        let nodes = registrations.map { DependencyGraph.Node(key: $0.key, kind: $0.kind, decorators: $0.decorators) }
        return DependencyGraph(nodes: nodes, edges: Array(edges))
    }

    /// What an edge to `dependency` (a key a factory resolved, or an initializer's parameter
    /// type) is drawn to: `dependency`, where a resolve through this injector finds it; for an
    /// optional or a provider handle registered as none, what it wraps, which its resolve
    /// resolves; `nil` for an optional whose wrapped key nothing registers, which resolves to
    /// `nil`: drawn, it would be a node "not registered", a registration missing that is not.
    private func drawnDependency(_ dependency: DependencyKey) -> DependencyKey? {
        guard lookup(dependency) == nil, let wrapper = dependency.type as? any ParameterWrapping.Type else {
            return dependency
        }
        let wrapped = DependencyKey(type: wrapper.wrappedType, name: dependency.name)
        if dependency.type is any OptionalResolvable.Type, lookup(wrapped) == nil { return nil }
        return wrapped
    }

    /// Whether a resolve of `collection` through this injector gathers its elements: nothing is
    /// registered for it yet (its gathering is made on the first resolve), or what is registered
    /// gathers them, not a registration by hand.
    private func gathers(_ collection: DependencyKey) -> Bool {
        guard let (_, owner) = lookup(collection) else { return true }
        return owner.registry.withLock { $0.collections[collection]?.currentGathering(in: $0) != nil }
    }
}
