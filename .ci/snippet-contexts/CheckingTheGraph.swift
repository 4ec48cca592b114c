// What CheckingTheGraph.md's Swift blocks assume (see .ci/snippets).
import Injector

var injector: DependencyInjector { .shared }
var app: DependencyInjector { .shared }
struct RequestContext: Sendable { let id: Int }
