extension DependencyInjector {
    /// The dependencies seen so far, as a graph you can inspect or render with Graphviz.
    ///
    /// ```swift
    /// try injector.verify()
    /// print(injector.graph().dot)
    /// ```
    ///
    /// Nodes are every key this injector can resolve (see ``registrations``) and every key a
    /// factory asked for that is not registered. Edges are the resolves that this injector and
    /// its ancestors have seen a factory make:
    ///
    /// - every resolve that runs a factory (transients, and singletons when they are created)
    ///   is recorded on that path, which a cache hit never takes;
    /// - a factory's resolve of a registered instance or an already created singleton is a
    ///   cache hit, recorded only while the injector is observed (``observe(_:)``) or verified.
    ///
    /// So for the whole graph, call ``verify()`` first: it runs every factory once, off to the
    /// side, and records every edge here. Dependencies that factories do not resolve (lazily
    /// resolved properties, resolves inside methods) are not edges.
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
