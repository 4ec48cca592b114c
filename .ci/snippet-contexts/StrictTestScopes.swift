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

struct ReportJob {
    func run() async throws {}
}

protocol Mailer: Sendable {}
struct MockMailer: Mailer {}

struct SignUp {
    func run() async throws {}
}

protocol PaymentGateway {}

struct MockGateway: PaymentGateway {
    let declines: Bool
}

enum OrderError: Error, Equatable { case declined }

struct Order {
    let cents: Int
}

struct OrderService {
    func order(_ item: String, card: String) throws -> Order { Order(cents: 0) }
    func orderAndMailReceipt(_ item: String, card: String) async throws {}
}

struct LivePayments: PaymentService {
    func charge(_ cents: Int) -> PaymentOutcome { .charged }
}

struct SystemClock: Clock {}

/// The app's registrations, as the strict-mode examples pass them to `app:`.
@Sendable func registerServices(in injector: DependencyInjector) {}
