// TestHarness: the app half of the testing sample. `swift run TestHarness` runs it live;
// `swift test --filter TestHarnessTests` runs its parallel tests with mocks.
import Injector

ShopModule.register(in: DependencyInjector.shared)
let orders = OrderService()
for (sku, card) in [("mug", "4242424242424242"), ("sold-out", "4242424242424242"), ("poster", "0000111122223333")] {
    do {
        print("ordered: \(try orders.order(sku, card: card))")
    } catch {
        print("order of \(sku) failed: \(error)")
    }
}
print("TestHarness finished.")
