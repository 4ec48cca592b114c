import Injector
import InjectorTesting
import ShopUI
import Testing

final class FixedCatalog: CatalogAPI {
    func products() -> [String] { ["sticker"] }
}

@Suite(.injecting { @MainActor in $0.register(FixedCatalog() as any CatalogAPI) })
struct ShopUITests {
    @Test func aTestOverridesTheCatalogInItsOwnScope() throws {
        try DependencyInjector.current.install(ShopModule())
        DependencyInjector.current.register((any CatalogAPI).self) { @MainActor _ in FixedCatalog() }
        let model = ShopViewModel()
        model.buy("sticker")
        #expect(model.summary == "1 item(s); no banner; 1 products")
    }

    @Test(.injecting { @MainActor in $0.register(Banner(text: "test")) })
    func theTraitsRegistrationsReachTheViewModel() throws {
        try DependencyInjector.current.install(ShopModule())
        let model = ShopViewModel()
        model.buy("mug")
        #expect(model.summary == "1 item(s); test; 2 products")
    }
}
