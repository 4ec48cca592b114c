extension DependencyGraph {
    /// The graph in Graphviz DOT, ready for `dot -Tsvg graph.dot -o graph.svg`.
    ///
    /// ```swift
    /// try injector.graph().dot.write(toFile: "graph.dot", atomically: true, encoding: .utf8)
    /// ```
    ///
    /// Each node shows its key and how it is registered; a key that nothing registers is red
    /// and dashed. The output is sorted, so tests can compare it:
    ///
    /// ```text
    /// digraph Injector {
    ///   rankdir=LR;
    ///   node [shape=box];
    ///   "MyApp.App" [label="MyApp.App\ntransient"];
    ///   "MyApp.PaymentService" [label="MyApp.PaymentService\nnot registered", color=red, style=dashed];
    ///   "MyApp.App" -> "MyApp.PaymentService";
    /// }
    /// ```
    public var dot: String {
        var lines = ["digraph Injector {", "  rankdir=LR;", "  node [shape=box];"]
        let ids = Self.ids(of: nodes.map(\.key) + edges.flatMap { [$0.from, $0.to] })
        for node in nodes {
            let id = Self.quoted(ids[node.key, default: node.key.description])
            if let kind = node.kind {
                // A decorated key shows its layers, outermost first, over its registration.
                let layers = node.decorators.reversed().map { "decorated at \($0)" }
                lines.append(
                    "  \(id) [label=\(Self.quoted([node.key.description] + layers + [kind.description]))];")
            } else {
                lines.append(
                    "  \(id) [label=\(Self.quoted(node.key.description, "not registered")), color=red, style=dashed];")
            }
        }
        for edge in edges {
            let (from, to) = (
                ids[edge.from, default: edge.from.description], ids[edge.to, default: edge.to.description]
            )
            lines.append("  \(Self.quoted(from)) -> \(Self.quoted(to));")
        }
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }

    /// A DOT string of `lines`, joined by DOT's centred line break.
    /// A node ID for each key: its description, which two keys share only when they are types
    /// of one name in different private contexts (`Local (private)`); the later one gets
    /// ` #2` (` #3`, …), so that Graphviz does not merge them. The label keeps the description.
    private static func ids(of keys: [DependencyKey]) -> [DependencyKey: String] {
        var ids: [DependencyKey: String] = [:]
        var taken: [String: Int] = [:]
        for key in keys where ids[key] == nil {
            let count = taken[key.description, default: 0] + 1
            taken[key.description] = count
            ids[key] = count == 1 ? key.description : "\(key.description) #\(count)"
        }
        return ids
    }

    private static func quoted(_ lines: String...) -> String {
        quoted(lines)
    }

    private static func quoted(_ lines: [String]) -> String {
        let escaped = lines.map { $0.replacingAll("\\", with: "\\\\").replacingAll("\"", with: "\\\"") }
        return "\"" + escaped.joined(separator: "\\n") + "\""
    }
}

extension String {
    /// `self` with every `target` character replaced, without Foundation.
    fileprivate func replacingAll(_ target: Character, with replacement: String) -> String {
        var result = ""
        for character in self {
            if character == target { result += replacement } else { result.append(character) }
        }
        return result
    }
}
