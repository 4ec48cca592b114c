import Injector
import TestSupport
import Testing

protocol Shape {}
struct Square: Shape {}
struct Box<Value> { let value: Value }

/// Unusual but legal input: each has a defined result or a typed error, never a crash.
@Suite struct BadInputTests {
    @Test func unregisteringUnknownKeysDoesNothing() {
        let injector = DependencyInjector()
        injector.unregister(Int.self)
        injector.unregister(String.self, name: "never")
        injector.child().unregister(Probe.self)
        #expect(!injector.isRegistered(Int.self))
    }

    @Test(arguments: ["", " ", "ünïcødé 🚀", "with\nnewline", String(repeating: "x", count: 10_000)])
    func unusualNamesAreOrdinaryNames(name: String) throws {
        let injector = DependencyInjector()
        injector.register(name.count, name: name)
        #expect(try injector.resolve(Int.self, name: name) == name.count)
        #expect(throws: InjectionError.self) { try injector.resolve(Int.self) }
    }

    @Test func unusualTypesAreDistinctKeys() throws {
        let injector = DependencyInjector()
        injector.register(Int?.some(1))
        injector.register(2)
        injector.register(Square() as any Shape)
        injector.register(["a": 1])
        injector.register(Box(value: 1))
        injector.register(Box(value: "one"))
        injector.register(Int.self)  // a metatype, registered as a value of type Int.Type

        #expect(try injector.resolve(Int?.self) == 1)
        #expect(try injector.resolve(Int.self) == 2)
        #expect(try injector.resolve((any Shape).self) is Square)
        #expect(try injector.resolve([String: Int].self) == ["a": 1])
        #expect(try injector.resolve(Box<Int>.self).value == 1)
        #expect(try injector.resolve(Box<String>.self).value == "one")
        #expect(try injector.resolve(Int.Type.self) == Int.self)
        #expect(throws: InjectionError.self) { try injector.resolve(Square.self) }
        #expect(throws: InjectionError.self) { try injector.resolve([Int: String].self) }
    }

    @Test func aFactoryThatRegistersItsOwnKeyWhileRunningDoesNotDeadlock() throws {
        let injector = DependencyInjector()
        injector.register(String.self, scope: .singleton) { r in
            r.register("replacement")
            return "first"
        }
        // The first resolve returns what its factory made; the registration it made wins after.
        #expect(try injector.resolve(String.self) == "first")
        #expect(try injector.resolve(String.self) == "replacement")
    }

    @Test func aFactoryThatUnregistersItselfStillReturnsItsValue() throws {
        let injector = DependencyInjector()
        injector.register(String.self, scope: .singleton) { r in
            r.unregister(String.self)
            return "made"
        }
        #expect(try injector.resolve(String.self) == "made")
        #expect(!injector.isRegistered(String.self))
    }

    @Test func verifyCalledFromInsideAFactoryReportsTheCycleItWouldRun() throws {
        let injector = DependencyInjector()
        let innerFailures = Collected<[InjectionError]>()
        injector.register(String.self) { (r: DependencyInjector) -> String in
            do throws(VerificationError) {
                try r.verify()
                innerFailures.append([])
            } catch {
                innerFailures.append(error.failures)
            }
            return "built"
        }

        // The inner verify resolves String again on this thread: a cycle, reported, not a recursion.
        #expect(try injector.resolve(String.self) == "built")
        guard case .circularDependency(let path) = innerFailures.values.first?.first else {
            Issue.record("expected a cycle from the inner verify, got \(innerFailures.values)")
            return
        }
        #expect(path == [DependencyKey(String.self), DependencyKey(String.self)])

        // And verify itself, which runs the factory, which verifies again: still defined.
        #expect(throws: Never.self) { try injector.verify() }
    }
}
