// What Previews.md's Swift blocks assume (see .ci/snippets).
import Injector

var injector: DependencyInjector { .shared }

// A service with a preview stand-in.
protocol OrdersAPI: Sendable {}
struct LiveOrdersAPI: OrdersAPI {}
struct SampleOrdersAPI: OrdersAPI {}
