import Injector
import Testing

private final class CartScreen {
    @Inject var service: Service
    @Inject(name: "currency") var currency: String
}

private final class MissingDependency {
    @Inject var greeter: any Greeter
}

private class BaseScreen {
    @Inject var service: Service
}

private final class DetailScreen: BaseScreen {
    @Inject(name: "title") var title: String
}

private struct ValueOwner {
    @Inject var service: Service
}

@MainActor
private final class MainActorViewModel {
    @Inject var service: Service
    @OptionalInject var greeter: (any Greeter)?
    @LazyInject var lazyService: Service
}

@Suite struct InjectTests {
    private func injector() -> DependencyInjector {
        let injector = DependencyInjector()
        injector.register(Service(label: "live"))
        injector.register("EUR", name: "currency")
        injector.register("Details", name: "title")
        return injector
    }

    @Test func resolvesFromCurrentWhenTheOwnerIsInitialised() throws {
        let injector = DependencyInjector()
        let calls = Counter()
        injector.register(Service.self) { _ in
            calls.increment()
            return Service(label: "made")
        }
        injector.register("EUR", name: "currency")

        let checkout = DependencyInjector.$current.withValue(injector) { CartScreen() }
        #expect(calls.value == 1)  // at init, before any read
        #expect(checkout.service.label == "made")
        #expect(checkout.currency == "EUR")
        #expect(calls.value == 1)  // reading does not resolve again
    }

    @Test func anExplicitInjectorWinsOverCurrent() {
        let explicit = DependencyInjector()
        explicit.register(Service(label: "explicit"))
        struct Owner {
            let injector: DependencyInjector
            var service: Inject<Service>
            init(injector: DependencyInjector) {
                self.injector = injector
                service = Inject(injector: injector)
            }
        }
        let owner = DependencyInjector.$current.withValue(injector()) { Owner(injector: explicit) }
        #expect(owner.service.wrappedValue.label == "explicit")
    }

    @Test func aMissingDependencyIsATypedErrorInTheProjectedValue() {
        let missing = DependencyInjector.$current.withValue(DependencyInjector()) { MissingDependency() }
        guard case .failure(.notRegistered(let key, _, _)) = missing.$greeter else {
            Issue.record("expected notRegistered, got \(missing.$greeter)")
            return
        }
        #expect(key == DependencyKey((any Greeter).self))
        #expect(throws: InjectionError.self) { try missing.$greeter.get() }
    }

    @Test func assigningReplacesTheValueForThatObjectOnly() {
        let injector = injector()
        let (stubbed, other) = DependencyInjector.$current.withValue(injector) { (CartScreen(), CartScreen()) }
        stubbed.service = Service(label: "stub")

        #expect(stubbed.service.label == "stub")
        #expect(other.service.label == "live")
        #expect(throws: Never.self) { try stubbed.$service.get() }
    }

    @MainActor
    @Test func worksInSubclassesStructsAndMainActorClasses() {
        let injector = injector()
        let detail = DependencyInjector.$current.withValue(injector) { DetailScreen() }
        #expect(detail.service.label == "live")
        #expect(detail.title == "Details")

        let value = DependencyInjector.$current.withValue(injector) { ValueOwner() }
        #expect(value.service.label == "live")

        DependencyInjector.$current.withValue(injector) {
            let model = MainActorViewModel()
            #expect(model.service.label == "live")
            #expect(model.greeter == nil)
            #expect(model.lazyService.label == "live")
        }
    }

    @Test func anObjectBuiltByAChildsFactoryResolvesFromTheChild() throws {
        let parent = injector()
        parent.register(CartScreen.self) { _ in CartScreen() }
        let child = parent.child()
        child.register(Service(label: "child"))

        #expect(try child.resolve(CartScreen.self).service.label == "child")
        #expect(try parent.resolve(CartScreen.self).service.label == "live")
    }

    @Test func objectsKeepWhatTheyResolvedAfterTheScopeEnds() {
        let scoped = injector()
        scoped.register(Service(label: "scoped"))
        let checkout = DependencyInjector.$current.withValue(scoped) { CartScreen() }
        #expect(checkout.service.label == "scoped")
    }

    @Test func readingAFailedPropertyStopsWithTheFullDescription() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            final class Orphan {
                @Inject var greeter: any Greeter
            }
            _ = DependencyInjector.$current.withValue(DependencyInjector()) { Orphan() }.greeter
        }
        let stderr = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(stderr.contains("@Inject property declared at InjectorTests/InjectTests.swift:"))
        #expect(stderr.contains("Injector could not resolve any InjectorTests.Greeter: nothing is registered for it."))
        #expect(stderr.contains("(in Orphan) was read, but its dependency could not be resolved."))
        #expect(stderr.contains("create the object with `try injector.make { … }`, which throws it"))
    }

    /// Regression: every stop added "To fix: register what is missing", which contradicted the
    /// error's own fix when the value was registered (here, scoped, read with no opened scope).
    @Test func aStopOfARegisteredValueGivesOnlyItsErrorsFix() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            final class Handler {
                @Inject var service: Service
            }
            let app = DependencyInjector()
            app.register(Service.self, scope: .scoped) { _ in Service(label: "request") }
            _ = DependencyInjector.$current.withValue(app) { Handler() }.service
        }
        let stderr = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(stderr.contains("To fix: resolve it from an opened scope"))
        #expect(!stderr.contains("register what is missing"))
    }
}
