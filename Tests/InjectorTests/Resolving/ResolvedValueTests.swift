import Injector
import Testing

/// Every kind of value comes back exactly as registered, whichever way `resolve` converts it:
/// as it is when the stored value's type is the requested type, with a run-time cast when the
/// requested type is a protocol, from an inline or a boxed existential, ready or just made.
@Suite struct ResolvedValueTests {
    struct Large: Equatable {
        let a, b, c, d: Int  // too big for an existential's inline buffer: stored boxed
    }

    @Test func aClassRegisteredAsItselfIsTheSameInstance() throws {
        let injector = DependencyInjector()
        let service = Service(label: "as itself")
        injector.register(service)
        injector.register(Dependent.self, scope: .singleton) { r in try Dependent(service: r.resolve()) }

        #expect(try injector.resolve(Service.self) === service)
        #expect(try injector.resolve(Dependent.self) === injector.resolve(Dependent.self))
        #expect(try injector.resolve(Dependent.self).service === service)
    }

    @Test func aValueRegisteredAsAProtocolIsCastToIt() throws {
        let injector = DependencyInjector()
        injector.register(EnglishGreeter() as any Greeter)
        injector.register((any Greeter).self, name: "factory") { _ in FrenchGreeter() }

        #expect(try injector.resolve((any Greeter).self).greet() == "Hello")
        #expect(try injector.resolve((any Greeter).self, name: "factory").greet() == "Bonjour")
    }

    @Test func aMarkerProtocolDoesNotChangeTheKey() throws {
        let injector = DependencyInjector()
        injector.register(EnglishGreeter() as any Greeter & Sendable)

        #expect(try injector.resolve((any Greeter).self).greet() == "Hello")
    }

    @Test func boxedOptionalAndFunctionValuesComeBackUnchanged() throws {
        let injector = DependencyInjector()
        injector.register(Large(a: 1, b: 2, c: 3, d: 4))
        injector.register(Large.self, name: "made") { _ in Large(a: 5, b: 6, c: 7, d: 8) }
        injector.register(Int?.none)
        injector.register({ 42 } as @Sendable () -> Int)

        #expect(try injector.resolve(Large.self) == Large(a: 1, b: 2, c: 3, d: 4))
        #expect(try injector.resolve(Large.self, name: "made") == Large(a: 5, b: 6, c: 7, d: 8))
        #expect(try injector.resolve(Int?.self) == nil)
        #expect(try injector.resolve((@Sendable () -> Int).self)() == 42)
    }

    @Test func aChildWithOnlyNamedEntriesFallsThroughForUnnamedKeys() throws {
        let parent = DependencyInjector()
        let service = Service(label: "parent")
        parent.register(service)
        let child = parent.child()
        child.register(7, name: "level")

        for _ in 0..<3 {
            #expect(try child.resolve(Service.self) === service)
            #expect(throws: InjectionError.self) { try child.resolve(Int.self) }
        }
        #expect(try child.resolve(Int.self, name: "level") == 7)
    }
}
