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

protocol Mailer: Sendable {
    func send() -> String
}

struct MockMailer: Mailer {
    let id: Int
    func send() -> String { "mock \(id) sent" }
}

/// Resolves its mailer through `AsyncDependencyInjector.current`, as async code does.
func signUp() async throws -> String {
    try await AsyncDependencyInjector.current.resolve((any Mailer).self).send()
}
