import Injector
import InjectorTesting
import Testing

@testable import TestHarness

// Each test runs in its own child of `shared` (the `.injecting` trait), so these tests run in
// parallel with different mocks under the same keys and never see one another's.

struct FixedClock: Clock {
    func now() -> String { "fixed time" }
}

struct MockGateway: PaymentGateway {
    let declines: Bool
    func charge(cents: Int, card: String) throws -> String {
        if declines { throw PaymentDeclined(card: card) }
        return "mock charge of \(cents)"
    }
}

struct MockInventory: Inventory {
    let inStock: Set<String>
    func reserve(_ sku: String) -> Bool { inStock.contains(sku) }
}

@Suite(
    .injecting {
        ShopModule.register(in: $0)
        $0.register(FixedClock() as any Clock)
    }
)
struct OrderServiceTests {
    @Test(.injecting { $0.register(MockGateway(declines: false) as any PaymentGateway) })
    func aPaidOrderHasAReceipt() throws {
        let receipt = try OrderService().order("mug", card: "4242")
        #expect(receipt == Receipt(sku: "mug", charge: "mock charge of 1299", time: "fixed time"))
    }

    @Test(.injecting { $0.register(MockGateway(declines: true) as any PaymentGateway) })
    func aDeclinedCardIsReported() {
        #expect(throws: OrderError.declined) { try OrderService().order("mug", card: "4242") }
    }

    @Test(arguments: ["mug", "poster", "lamp"])
    func onlyStockedItemsCanBeOrdered(sku: String) throws {
        DependencyInjector.current.register(MockInventory(inStock: [sku]) as any Inventory)
        DependencyInjector.current.register(MockGateway(declines: false) as any PaymentGateway)

        #expect(try OrderService().order(sku, card: "4242").sku == sku)
        #expect(throws: OrderError.outOfStock("sold-out")) { try OrderService().order("sold-out", card: "4242") }
    }

    @Test(arguments: [100, 250, 999])
    func thePriceComesFromTheTestsRegistration(cents: Int) throws {
        DependencyInjector.current.register(cents, name: "priceCents")
        DependencyInjector.current.register(MockGateway(declines: false) as any PaymentGateway)
        #expect(try OrderService().order("mug", card: "4242").charge == "mock charge of \(cents)")
    }
}
