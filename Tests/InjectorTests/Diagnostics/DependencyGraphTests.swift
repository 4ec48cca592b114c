import Foundation
import Injector
import Testing

@Suite struct DependencyGraphTests {
    /// `App → Checkout → (baseURL, PaymentService)`, with PaymentService missing.
    private func checkoutGraph(_ face: Face) async -> FaceInjector {
        let injector = face.makeInjector()
        await injector.register("https://example.com", name: "baseURL")
        await injector.register(App.self, resolving: Checkout.self) { _ in App() }
        await injector.register(
            Checkout.self, scope: .singleton,
            needing: [.on(String.self, name: "baseURL"), .on((any PaymentService).self)]
        ) { Checkout() }
        return injector
    }

    @Test(arguments: Face.allCases)
    func afterVerifyTheDotOfASmallGraphIsExactAndCanBeWrittenToAFile(face: Face) async throws {
        let injector = await checkoutGraph(face)
        #expect(await injector.verificationError() != nil)

        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("graph.dot")
        try await injector.graph().dot.write(to: file, atomically: true, encoding: .utf8)

        #expect(
            try String(contentsOf: file, encoding: .utf8) == #"""
                digraph Injector {
                  rankdir=LR;
                  node [shape=box];
                  "InjectorTests.App" [label="InjectorTests.App\ntransient"];
                  "InjectorTests.Checkout" [label="InjectorTests.Checkout\nsingleton"];
                  "any InjectorTests.PaymentService" [label="any InjectorTests.PaymentService\nnot registered", color=red, style=dashed];
                  "Swift.String named \"baseURL\"" [label="Swift.String named \"baseURL\"\ninstance"];
                  "InjectorTests.App" -> "InjectorTests.Checkout";
                  "InjectorTests.Checkout" -> "any InjectorTests.PaymentService";
                  "InjectorTests.Checkout" -> "Swift.String named \"baseURL\"";
                }

                """#
        )
    }

    @Test(arguments: Face.allCases)
    func withoutVerifyOrAnObserverNoEdgesAreRecorded(face: Face) async {
        let injector = await checkoutGraph(face)
        #expect(await injector.resolveError(App.self) != nil)

        // Plain resolves pay nothing for the graph: only the nodes are known.
        let graph = await injector.graph()
        #expect(graph.edges.isEmpty)
        #expect(
            graph.nodes.map(\.key.description) == [
                "InjectorTests.App", "InjectorTests.Checkout", #"Swift.String named "baseURL""#,
            ])
    }

    @Test(arguments: Face.allCases)
    func whileObservedCacheHitsInsideFactoriesAreEdgesToo(face: Face) async throws {
        let injector = face.makeInjector()
        await injector.register(Service(label: "instance"))
        await injector.register(Dependent.self, resolving: Service.self) { Dependent(service: $0) }
        await injector.observe { _ in }

        _ = try await injector.resolve(Dependent.self)
        #expect(
            await injector.graph().edges == [
                DependencyGraph.Edge(from: DependencyKey(Dependent.self), to: DependencyKey(Service.self))
            ]
        )
    }

    @Test(arguments: Face.allCases)
    func aChildsGraphIncludesWhatItsAncestorsRecorded(face: Face) async throws {
        let parent = face.makeInjector()
        await parent.register(Service.self, scope: .singleton) { Service() }
        await parent.register(Dependent.self, scope: .singleton, resolving: Service.self) { Dependent(service: $0) }
        await parent.observe { _ in }  // records edges; the child, created after, inherits it
        let child = parent.child()
        await child.register(NodeA.self, resolving: Dependent.self) { _ in NodeA() }

        _ = try await child.resolve(NodeA.self)
        #expect(
            await child.graph().description
                == "InjectorTests.Dependent → InjectorTests.Service\nInjectorTests.NodeA → InjectorTests.Dependent")
        #expect(await parent.graph().description == "InjectorTests.Dependent → InjectorTests.Service")
    }
}
