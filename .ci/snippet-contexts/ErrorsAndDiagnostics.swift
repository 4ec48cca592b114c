// What ErrorsAndDiagnostics.md's Swift blocks assume (see .ci/snippets).
import Injector

var injector: DependencyInjector { .shared }

protocol PaymentService {
    func charge(_ cents: Int)
}

final class Checkout {
    @Inject var payments: PaymentService
}

var checkout: Checkout { Checkout() }

struct DatabaseError: Error {}

struct Logger {
    func error(_ message: String) {}
}

var logger: Logger { Logger() }
