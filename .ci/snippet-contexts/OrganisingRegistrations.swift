// What OrganisingRegistrations.md's Swift blocks assume (see .ci/snippets).
import Foundation
import Injector

var injector: DependencyInjector { .shared }
var test: DependencyInjector { DependencyInjector.shared.child() }

protocol HTTPClient {}

struct URLSessionClient: HTTPClient {
    init() throws {}
}

protocol APIClient {}

struct LiveAPIClient: APIClient {
    let http: HTTPClient
}

struct PaymentsModule: DependencyModule {
    func register(in injector: DependencyInjector) {}
}

protocol NetworkProviding {}
struct LiveNetwork: NetworkProviding {}
struct MockNetwork: NetworkProviding {}

struct UserSession {
    let id: UUID
    let api: APIClient
}

struct Report {}

// An initializer registered as a factory (`register(_:initializer:)`).
final class Cart {}
final class Analytics {}
protocol PaymentService {}
final class StripePayments: PaymentService {
    init(cart: Cart) {}
}
