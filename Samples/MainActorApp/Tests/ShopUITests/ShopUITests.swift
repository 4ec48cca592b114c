import Injector
import InjectorTesting
import ShopUI
import Testing

#if canImport(XCTest)
    import XCTest
#endif

final class FixedCatalog: CatalogAPI {
    func products() -> [String] { ["sticker"] }
}

// A main-actor test target, as Xcode 26 creates it: every closure below is unmarked.

@Suite(.injecting { $0.mainActor.register((any CatalogAPI).self) { _ in FixedCatalog() } })
struct ShopUITests {
    @Test func aTestOverridesTheCatalogInItsOwnScope() throws {
        try DependencyInjector.current.install(ShopModule())
        DependencyInjector.current.mainActor.register((any CatalogAPI).self) { _ in FixedCatalog() }
        let model = ShopViewModel()
        model.buy("sticker")
        #expect(model.summary == "1 item(s); no banner; 1 products")
    }

    @Test(.injecting { $0.mainActor.register(Banner.self) { _ in Banner(text: "test") } })
    func theTraitsRegistrationsReachTheViewModel() throws {
        try DependencyInjector.current.install(ShopModule())
        DependencyInjector.current.mainActor.register((any CatalogAPI).self) { _ in LiveCatalog() }
        let model = ShopViewModel()
        model.buy("mug")
        #expect(model.summary == "1 item(s); test; 2 products")
    }

    @Test func aScopedMainActorProviderResolvesWhenRead() throws {
        let providers = AppProviders()
        #expect(providers.greeting.text == "welcome")
        #expect(try DependencyInjector.current.resolve(Greeting.self) === providers.greeting)
    }
}

/// Strict mode in a main-actor target: a forgotten stand-in fails with a fix line that compiles
/// here (`$0.mainActor.register(…)`: the stand-in is main-actor code in this target).
@Suite(.injecting(.strict(app: { $0.mainActor.register((any CatalogAPI).self) { _ in LiveCatalog() } })))
struct StrictShopUITests {
    @Test func aForgottenStandInSaysHowToRegisterOneInThisTarget() {
        var message = ""
        withKnownIssue {  // the refusal is recorded on the test too
            do throws(InjectionError) {
                _ = try DependencyInjector.current.resolve((any CatalogAPI).self)
            } catch {
                message = error.description
            }
        }
        #expect(message.hasPrefix("Injector refused to resolve any ShopUI.CatalogAPI in a strict test scope"))
        #expect(message.contains("`$0.mainActor.register((any ShopUI.CatalogAPI).self) { _ in … }`"))
    }

    /// The fix line, as the message shows it: it compiles in this target, and the stand-in is used.
    @Test(.injecting { $0.mainActor.register((any CatalogAPI).self) { _ in FixedCatalog() } })
    func theFixLineCompilesHere() throws {
        #expect(try DependencyInjector.current.resolve((any CatalogAPI).self).products() == ["sticker"])
    }
}

#if canImport(XCTest)
    /// The same with XCTest: `registerDependencies` registers main-actor stand-ins with no
    /// mark on the closure. (XCTest's `XCTestCase` is not main-actor isolated, so a subclass
    /// in a main-actor target says `nonisolated`, and its main-actor tests say `@MainActor`.)
    nonisolated final class ShopUITestCase: InjectorTestCase {
        override func registerDependencies(in injector: DependencyInjector) {
            injector.mainActor.register((any CatalogAPI).self) { _ in FixedCatalog() }
        }

        @MainActor
        func testTheStandInReachesTheViewModel() async throws {
            try injector.install(ShopModule())
            injector.mainActor.register((any CatalogAPI).self) { _ in FixedCatalog() }
            let model = ShopViewModel()
            model.buy("sticker")
            XCTAssertEqual(model.summary, "1 item(s); no banner; 1 products")
        }
    }
#endif
