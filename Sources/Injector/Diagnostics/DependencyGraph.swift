/// The dependencies an injector has seen being resolved: who resolved whom.
///
/// ```swift
/// try injector.verify()                 // resolves everything once, off to the side
/// let dot = injector.graph().dot        // render with `dot -Tsvg graph.dot -o graph.svg`
/// ```
///
/// Nodes are the registrations the injector can resolve, plus any key a factory asked for
/// that is not registered; ``DependencyInjector/graph()`` says which edges are recorded.
public struct DependencyGraph: Sendable, CustomStringConvertible {
    /// A key in the graph.
    ///
    /// ```swift
    /// let missing = graph.nodes.filter { $0.kind == nil }
    /// ```
    public struct Node: Hashable, Sendable {
        /// The key: `node.key.typeName`.
        public let key: DependencyKey
        /// How the key is registered, or `nil` when a factory asked for it but nothing is
        /// registered: `graph.nodes.filter { $0.kind == nil }`.
        public let kind: RegistrationInfo.Kind?
        /// Where the decorators that wrap the key's value were added, innermost first (see
        /// ``DependencyInjector/decorate(_:name:fileID:line:_:)``): the layers over the
        /// registration. Empty when nothing decorates it.
        public let decorators: [RegistrationSite]

        /// Creates a node.
        ///
        /// ```swift
        /// let node = DependencyGraph.Node(key: DependencyKey(Database.self), kind: .factory(.singleton))
        /// ```
        public init(key: DependencyKey, kind: RegistrationInfo.Kind?, decorators: [RegistrationSite] = []) {
            self.key = key
            self.kind = kind
            self.decorators = decorators
        }
    }

    /// `from`'s factory resolved `to`.
    ///
    /// ```swift
    /// let needsDatabase = graph.edges.filter { $0.to == DependencyKey(Database.self) }.map(\.from)
    /// ```
    public struct Edge: Hashable, Sendable {
        /// The key whose factory made the resolve: `edge.from`.
        public let from: DependencyKey
        /// The key it resolved: `edge.to`.
        public let to: DependencyKey

        /// Creates an edge.
        ///
        /// ```swift
        /// let edge = DependencyGraph.Edge(from: DependencyKey(App.self), to: DependencyKey(Checkout.self))
        /// ```
        public init(from: DependencyKey, to: DependencyKey) {
            self.from = from
            self.to = to
        }
    }

    /// The nodes, sorted by key: `graph.nodes.map(\.key)`.
    public let nodes: [Node]

    /// The edges, sorted by the keys they join: `graph.edges.filter { $0.from == key }`.
    public let edges: [Edge]

    /// Creates a graph of `nodes` and `edges`, with a not-registered node for each edge key `nodes` lacks.
    ///
    /// ```swift
    /// let graph = DependencyGraph(nodes: [], edges: [edge])
    /// ```
    public init(nodes: [Node], edges: [Edge]) {
        var byKey: [DependencyKey: Node] = [:]
        for node in nodes { byKey[node.key] = node }
        for edge in edges {
            for key in [edge.from, edge.to] where byKey[key] == nil { byKey[key] = Node(key: key, kind: nil) }
        }
        self.nodes = DependencyKey.sorted(Array(byKey.values), by: \.key)
        self.edges = DependencyKey.sorted(Array(Set(edges))) { ($0.from, $0.to) }
    }

    /// The edges as `from → to` lines: `print(injector.graph())`.
    public var description: String {
        edges.map { "\($0.from) → \($0.to)" }.joined(separator: "\n")
    }
}
