import Testing

@testable import Injector

/// A wrapper's failure names the injector it searched, so a reader who registered into
/// another one sees that the two did not meet.
@Suite struct SearchedInjectorTests {
    @Test func eachKindOfInjectorIsNamedWithItsRegistrations() {
        let own = DependencyInjector()
        own.register(1)
        own.register("a", name: "x")
        #expect(
            own.searchedDescription == "an injector of its own (not DependencyInjector.shared), with 2 registrations")

        let child = own.child()
        child.register(2.5)
        #expect(
            child.searchedDescription
                == "a child injector under an injector of its own, with 1 registration of its own and 2 in its ancestors"
        )

        own.withOverrides({ _ in }) {
            #expect(
                DependencyInjector.current.searchedDescription
                    == "a test scope (a child that keeps its own singletons, as withOverrides, .injecting and "
                    + "InjectorTestCase make) under an injector of its own, with 0 registrations of its own and 2 in its ancestors"
            )
        }
        #expect(DependencyInjector.shared.searchedDescription.hasPrefix("DependencyInjector.shared, with "))
    }
}
