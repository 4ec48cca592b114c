// What RunTimeArguments.md's Swift blocks assume (see .ci/snippets): the argument-taking types.
import Foundation
import Injector

var injector: DependencyInjector { .shared }

protocol HTTPClient {}

protocol APIClient {}

struct UserSession {
    let id: UUID
    let api: APIClient
}

var userID: UUID { UUID() }

enum Format { case pdf, csv }

struct Report {
    let year: Int
    let format: Format
}

// A client per tenant, cached by argument.
final class TenantClient {
    init(tenant: String, http: any HTTPClient) {}
    func disconnect() {}
}
