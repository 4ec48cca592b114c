import Injector
import Observation
import Testing

/// A SwiftUI-style view model: in an `@Observable` class, each wrapped property is marked
/// `@ObservationIgnored` (the macro cannot track a wrapped property; without the mark it
/// reports "invalid redeclaration of synthesized property"). Compiled in CI with every wrapper.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
@Observable
final class GreetingViewModel {
    @ObservationIgnored @Inject var greeter: any Greeter
    @ObservationIgnored @LazyInject(name: "fallback") var fallback: any Greeter
    @ObservationIgnored @OptionalInject var service: Service?
    @ObservationIgnored @Provider var dependent: Dependent = Dependent(service: Service())

    var greeting = ""

    func load() {
        greeting = greeter.greet() + " / " + fallback.greet()
    }
}

@Suite struct ObservableViewModelTests {
    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
    @Test func anObservableViewModelResolvesItsWrappedPropertiesAndStillTracksItsOwn() throws {
        let injector = DependencyInjector()
        injector.register(EnglishGreeter() as any Greeter)
        injector.register(FrenchGreeter() as any Greeter, name: "fallback")

        let model = DependencyInjector.$current.withValue(injector) { GreetingViewModel() }
        let changed = Counter()
        withObservationTracking {
            _ = model.greeting
        } onChange: {
            changed.increment()
        }
        model.load()

        #expect(model.greeting == "Hello / Bonjour")
        #expect(changed.value == 1)  // the view model's own property is still observed
        #expect(model.service == nil)
        #expect(try injector.resolve(Dependent.self) === model.dependent)
    }
}
