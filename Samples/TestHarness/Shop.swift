import Injector

// A small app-like service graph: an order service that charges a payment gateway, reserves
// stock and stamps receipts with a clock. `Tests/TestHarnessTests` tests it in parallel with
// mocks, each test in its own injector.

protocol PaymentGateway: Sendable {
    func charge(cents: Int, card: String) throws -> String
}

protocol Inventory: Sendable {
    func reserve(_ sku: String) -> Bool
}

protocol Clock: Sendable {
    func now() -> String
}

struct PaymentDeclined: Error, Equatable {
    let card: String
}

struct LivePaymentGateway: PaymentGateway {
    func charge(cents: Int, card: String) throws -> String {
        guard !card.hasPrefix("0000") else { throw PaymentDeclined(card: card) }
        return "ch_\(card.suffix(4))_\(cents)"
    }
}

struct LiveInventory: Inventory {
    func reserve(_ sku: String) -> Bool { sku != "sold-out" }
}

struct SystemClock: Clock {
    func now() -> String { "2026-11-22T10:00:00Z" }
}

struct Receipt: Equatable, CustomStringConvertible {
    let sku: String
    let charge: String
    let time: String

    var description: String { "\(sku) paid with \(charge) at \(time)" }
}

enum OrderError: Error, Equatable {
    case outOfStock(String)
    case declined
}

/// What the app's screens call. Its dependencies are injected when it is created.
final class OrderService {
    @Inject var payments: any PaymentGateway
    @Inject var inventory: any Inventory
    @Inject var clock: any Clock
    @Inject(name: "priceCents") var price: Int

    func order(_ sku: String, card: String) throws(OrderError) -> Receipt {
        guard inventory.reserve(sku) else { throw .outOfStock(sku) }
        do {
            let charge = try payments.charge(cents: price, card: card)
            return Receipt(sku: sku, charge: charge, time: clock.now())
        } catch {
            throw .declined
        }
    }
}

/// The app's start-up registrations.
enum ShopModule {
    static func register(in injector: DependencyInjector) {
        injector.register(LivePaymentGateway() as any PaymentGateway)
        injector.register((any Inventory).self, scope: .singleton) { _ in LiveInventory() }
        injector.register(SystemClock() as any Clock)
        injector.register(1_299, name: "priceCents")
    }
}
