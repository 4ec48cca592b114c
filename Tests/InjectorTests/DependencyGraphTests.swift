import Foundation
import Injector
import Testing

@Suite struct DependencyGraphTests {
    /// `App → Checkout → (baseURL, PaymentService)`, with PaymentService missing.
    private func checkoutGraph() -> DependencyInjector {
        let injector = DependencyInjector()
        injector.register("https://example.com", name: "baseURL")
        injector.register(App.self) { r in
            _ = try r.resolve(Checkout.self)
            return App()
        }
        injector.register(Checkout.self, scope: .singleton) { r in
            _ = try r.resolve(String.self, name: "baseURL")
            _ = try r.resolve((any PaymentService).self)
            return Checkout()
        }
        return injector
    }

    @Test func afterVerifyTheDotOfASmallGraphIsExactAndCanBeWrittenToAFile() throws {
        let injector = checkoutGraph()
        #expect(throws: VerificationError.self) { try injector.verify() }

        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("graph.dot")
        try injector.graph().dot.write(to: file, atomically: true, encoding: .utf8)

        #expect(
            try String(contentsOf: file, encoding: .utf8) == #"""
                digraph Injector {
                  rankdir=LR;
                  node [shape=box];
                  "InjectorTests.App" [label="InjectorTests.App\ntransient"];
                  "InjectorTests.Checkout" [label="InjectorTests.Checkout\nsingleton"];
                  "InjectorTests.PaymentService" [label="InjectorTests.PaymentService\nnot registered", color=red, style=dashed];
                  "Swift.String named \"baseURL\"" [label="Swift.String named \"baseURL\"\ninstance"];
                  "InjectorTests.App" -> "InjectorTests.Checkout";
                  "InjectorTests.Checkout" -> "InjectorTests.PaymentService";
                  "InjectorTests.Checkout" -> "Swift.String named \"baseURL\"";
                }

                """#
        )
    }

    @Test func withoutVerifyOrAnObserverNoEdgesAreRecorded() {
        let injector = checkoutGraph()
        #expect(throws: InjectionError.self) { try injector.resolve(App.self) }

        // Plain resolves pay nothing for the graph: only the nodes are known.
        let graph = injector.graph()
        #expect(graph.edges.isEmpty)
        #expect(
            graph.nodes.map(\.key.description) == [
                "InjectorTests.App", "InjectorTests.Checkout", #"Swift.String named "baseURL""#,
            ])
    }

    @Test func whileObservedCacheHitsInsideFactoriesAreEdgesToo() throws {
        let injector = DependencyInjector()
        injector.register(Service(label: "instance"))
        injector.register(Dependent.self) { r in try Dependent(service: r.resolve()) }
        injector.observe { _ in }

        _ = try injector.resolve(Dependent.self)
        #expect(
            injector.graph().edges == [
                DependencyGraph.Edge(from: DependencyKey(Dependent.self), to: DependencyKey(Service.self))
            ]
        )
    }

    @Test func aChildsGraphIncludesWhatItsAncestorsRecorded() throws {
        let parent = DependencyInjector()
        parent.register(Service.self, scope: .singleton) { _ in Service() }
        parent.register(Dependent.self, scope: .singleton) { r in try Dependent(service: r.resolve()) }
        parent.observe { _ in }  // records edges; the child, created after, inherits it
        let child = parent.child()
        child.register(NodeA.self) { r in
            _ = try r.resolve(Dependent.self)
            return NodeA()
        }

        _ = try child.resolve(NodeA.self)
        #expect(
            child.graph().description
                == "InjectorTests.Dependent → InjectorTests.Service\nInjectorTests.NodeA → InjectorTests.Dependent")
        #expect(parent.graph().description == "InjectorTests.Dependent → InjectorTests.Service")
    }
}
