// What StrictTestScopes.md's Swift blocks assume (see .ci/snippets).
import Injector
import InjectorTesting
import Testing

enum PaymentOutcome: Equatable { case charged, declined }

protocol PaymentService {
    func charge(_ cents: Int) -> PaymentOutcome
}

struct MockPayments: PaymentService {
    func charge(_ cents: Int) -> PaymentOutcome { .charged }
}

final class Checkout {
    @Inject var payments: PaymentService

    @discardableResult
    func pay() throws -> PaymentOutcome { payments.charge(100) }
}

protocol Clock {}
struct FixedClock: Clock {}

protocol Mailer: Sendable {}

struct LivePayments: PaymentService {
    func charge(_ cents: Int) -> PaymentOutcome { .charged }
}

struct SystemClock: Clock {}

/// The app's registrations, as the strict-mode examples pass them to `app:`.
@Sendable func registerServices(in injector: DependencyInjector) {}
