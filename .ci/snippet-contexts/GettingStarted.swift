// What GettingStarted.md's Swift blocks assume (see .ci/snippets).
import Injector

var injector: DependencyInjector { .shared }

protocol PaymentService {
    func charge(_ cents: Int)
}

struct StripePayments: PaymentService {
    func charge(_ cents: Int) {}
}

protocol HTTPClient {}

struct URLSessionClient: HTTPClient {
    let baseURL: String
}

final class PDFExporter {}
final class Analytics {}

class Database {}
final class SQLiteDatabase: Database {}

final class Checkout {
    @Inject var payments: PaymentService
}

var checkout: Checkout { Checkout() }

protocol FooService {
    func printMessage()
}

struct Foo: FooService {
    let message: String
    init(_ message: String) { self.message = message }
    func printMessage() { print(message) }
}
