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
    /// whole graph, call ``verify()`` first. Resolves outside factories (lazy properties,
    /// methods) are not edges.
    public func graph() -> DependencyGraph {
        var edges: Set<DependencyGraph.Edge> = []
        var injector: DependencyInjector? = self
        while let current = injector {
            edges.formUnion(current.registry.withLock { $0.diagnostics.edges })
            injector = current.parent
        }
        let nodes = registrations.map { DependencyGraph.Node(key: $0.key, kind: $0.kind) }
        return DependencyGraph(nodes: nodes, edges: Array(edges))
    }
}
