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
    /// whole graph, call ``verify()`` first. Resolves outside factories are not edges.
    public func graph() -> DependencyGraph {
        var edges: Set<DependencyGraph.Edge> = []
        for injector in sequence(first: self, next: \.parent) {
            edges.formUnion(injector.registry.withLock { $0.diagnostics.edges })
            // A collection gathers its elements, whether or not a resolve has been seen yet.
            edges.formUnion(
                injector.registry.withLock { registry in
                    registry.collections.flatMap { collection, contents in
                        contents.present(in: registry).map { DependencyGraph.Edge(from: collection, to: $0.key) }
                    }
                })
        }
        let registrations = registrations
        // A forwarded key resolves its target, whether or not a resolve has been seen yet.
        for registration in registrations {
            if let target = registration.forwardedTo { edges.insert(.init(from: registration.key, to: target)) }
        }
        let nodes = registrations.map { DependencyGraph.Node(key: $0.key, kind: $0.kind) }
        return DependencyGraph(nodes: nodes, edges: Array(edges))
    }
}
