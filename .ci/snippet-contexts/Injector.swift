// What Injector.md's Swift blocks assume (see .ci/snippets).
import Injector

final class Logger: Sendable {}

protocol PaymentService: Sendable {}

struct StripePayments: PaymentService {
    let logger: Logger
}
