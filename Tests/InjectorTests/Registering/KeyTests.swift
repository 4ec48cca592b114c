import Injector
import Testing

@Suite struct KeyTests {
    @Test func sameSimpleNameInDifferentParentsDoNotCollide() throws {
        let injector = DependencyInjector()
        injector.register(FeatureA.Config(value: "a"))
        injector.register(FeatureB.Config(value: "b"))

        #expect(try injector.resolve(FeatureA.Config.self) == FeatureA.Config(value: "a"))
        #expect(try injector.resolve(FeatureB.Config.self) == FeatureB.Config(value: "b"))
        #expect(DependencyKey(FeatureA.Config.self) != DependencyKey(FeatureB.Config.self))
    }

    @Test func namesSelectSeparateRegistrationsOfOneType() throws {
        let injector = DependencyInjector()
        injector.register("unnamed")
        injector.register("https://example.com", name: "baseURL")
        injector.register(String.self, name: "token") { _ in "secret" }

        #expect(try injector.resolve(String.self) == "unnamed")
        #expect(try injector.resolve(String.self, name: "baseURL") == "https://example.com")
        #expect(try injector.resolve(String.self, name: "token") == "secret")
        #expect(throws: InjectionError.self) { try injector.resolve(String.self, name: "other") }
    }

    @Test func genericArgumentsAreDistinctKeys() throws {
        let injector = DependencyInjector()
        injector.register(Box(value: 1))
        injector.register(Box(value: "one"))

        #expect(try injector.resolve(Box<Int>.self).value == 1)
        #expect(try injector.resolve(Box<String>.self).value == "one")
    }

    @Test func optionalSugarAndSpelledOutOptionalAreOneKey() throws {
        let injector = DependencyInjector()
        injector.register(Int?.some(3))

        #expect(try injector.resolve(Optional<Int>.self) == 3)
    }

    /// Issue 15: a private type printed as `InjectorTests.(unknown context at $5641c6f98628).Key`,
    /// an address that changes on every run, in errors, `registrations` and DOT output.
    @Test func privateAndLocalTypesAreNamedAsWrittenAndMarked() {
        struct LocalKey {}
        #expect(DependencyKey(PrivateKey.self).typeName == "InjectorTests.PrivateKey (private)")
        #expect(DependencyKey(LocalKey.self).description == "InjectorTests.KeyTests.LocalKey (private)")
        #expect(
            DependencyKey(Box<PrivateKey>.self, name: "n").description
                == "InjectorTests.Box<InjectorTests.PrivateKey> (private) named \"n\"")
        let error = #expect(throws: InjectionError.self) { try DependencyInjector().resolve(PrivateKey.self) }
        #expect(error?.description.contains("resolve InjectorTests.PrivateKey (private)") == true)
        #expect(error?.description.contains("unknown context") == false)
    }

    @Test func keyDescriptionIsModuleQualifiedWithQuotedName() {
        #expect(DependencyKey(FeatureA.Config.self).description == "InjectorTests.FeatureA.Config")
        #expect(DependencyKey(String.self, name: "baseURL").description == "Swift.String named \"baseURL\"")
        #expect(DependencyKey((any Greeter).self).typeName == "any InjectorTests.Greeter")
    }
}

private enum PrivateKey {}
