import Injector

protocol PaymentService: Sendable {
    func charge(_ cents: Int) -> String
}

struct MockPayments: PaymentService {
    let id: Int
    func charge(_ cents: Int) -> String { "mock \(id) charged \(cents)" }
}

final class Checkout {
    @Inject var payments: any PaymentService
    func pay() -> String { payments.charge(100) }
}
