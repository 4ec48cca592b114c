import Injector
import Testing

@Suite struct CycleTests {
    @Test(arguments: [Scope.transient, .singleton, .weak])
    func aKeyThatNeedsItselfIsACycleOfOne(scope: Scope) {
        let injector = DependencyInjector()
        injector.register(Service.self, scope: scope) { r in try r.resolve(Service.self) }

        #expect(cyclePath { try injector.resolve(Service.self) } == ["Service", "Service"])
    }

    @Test(arguments: [Scope.transient, .singleton])
    func twoKeysThatNeedEachOtherReportTheExactPath(scope: Scope) {
        let injector = DependencyInjector()
        injector.register(NodeA.self, scope: scope) { r in
            _ = try r.resolve(NodeB.self)
            return NodeA()
        }
        injector.register(NodeB.self, scope: scope) { r in
            _ = try r.resolve(NodeA.self)
            return NodeB()
        }

        #expect(cyclePath { try injector.resolve(NodeA.self) } == ["NodeA", "NodeB", "NodeA"])
        #expect(cyclePath { try injector.resolve(NodeB.self) } == ["NodeB", "NodeA", "NodeB"])
    }

    @Test func threeKeysInACycleReportTheExactPath() {
        let injector = DependencyInjector()
        injector.register(NodeA.self) { r in
            _ = try r.resolve(NodeB.self)
            return NodeA()
        }
        injector.register(NodeB.self, scope: .singleton) { r in
            _ = try r.resolve(NodeC.self)
            return NodeB()
        }
        injector.register(NodeC.self) { r in
            _ = try r.resolve(NodeA.self)
            return NodeC()
        }

        #expect(cyclePath { try injector.resolve(NodeA.self) } == ["NodeA", "NodeB", "NodeC", "NodeA"])
    }

    @Test func aCycleIsNotCachedAndTheGraphWorksOnceFixed() throws {
        let injector = DependencyInjector()
        injector.register(NodeA.self, scope: .singleton) { r in
            _ = try r.resolve(NodeB.self)
            return NodeA()
        }
        injector.register(NodeB.self, scope: .singleton) { r in
            _ = try r.resolve(NodeA.self)
            return NodeB()
        }
        #expect(throws: InjectionError.self) { try injector.resolve(NodeA.self) }

        injector.register(NodeB.self, scope: .singleton) { _ in NodeB() }
        _ = try injector.resolve(NodeA.self)
    }

    @Test func aChildOverrideThatDecoratesItsParentIsNoCycle() throws {
        let parent = DependencyInjector()
        parent.register(String.self) { _ in "base" }
        let child = parent.child()
        child.register(String.self) { _ in try parent.resolve(String.self) + "+decorated" }

        #expect(try child.resolve(String.self) == "base+decorated")
    }

    @Test func aThousandDeepAcyclicChainResolves() throws {
        let injector = DependencyInjector()
        let depth = 1_000
        for level in 0..<depth {
            injector.register(Int.self, name: "\(level)") { r in
                level == depth - 1 ? level : try r.resolve(Int.self, name: "\(level + 1)")
            }
        }
        #expect(try injector.resolve(Int.self, name: "0") == depth - 1)
    }

    /// The simple type names on the path of the cycle `body` throws, or `nil` if it throws none.
    private func cyclePath(_ body: () throws -> Any) -> [String]? {
        do {
            _ = try body()
            return nil
        } catch InjectionError.circularDependency(let path) {
            return path.map { String(describing: $0.type) }
        } catch {
            return nil
        }
    }
}
