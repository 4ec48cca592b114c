import Injector
import Testing

protocol PaymentService: Sendable {}
struct StripePayments: PaymentService {}
struct LivePaymentService: PaymentService {}
struct Checkout {}
struct App {}

@Suite struct InjectionErrorTests {
    /// `App → Checkout → PaymentService`, with PaymentService missing.
    private func appGraph() -> DependencyInjector {
        let injector = DependencyInjector()
        injector.register(App.self) { r in
            _ = try r.resolve(Checkout.self)
            return App()
        }
        injector.register(Checkout.self) { r in
            _ = try r.resolve((any PaymentService).self)
            return Checkout()
        }
        return injector
    }

    @Test func aMissingDependencyDeepInTheGraphNamesTheWholePath() {
        let error = #expect(throws: InjectionError.self) { try appGraph().resolve(App.self) }
        guard case .notRegistered(let key, let path, let suggestions) = error else {
            Issue.record("expected notRegistered, got \(String(describing: error))")
            return
        }
        #expect(key == DependencyKey((any PaymentService).self))
        #expect(path == [DependencyKey(App.self), DependencyKey(Checkout.self), key])
        #expect(suggestions.isEmpty)
        #expect(
            error?.description == """
                Injector could not resolve any InjectorTests.PaymentService: nothing is registered for it.
                Resolution path: InjectorTests.App → InjectorTests.Checkout → any InjectorTests.PaymentService
                To fix: register any InjectorTests.PaymentService before resolving it, \
                e.g. `injector.register((any InjectorTests.PaymentService).self) { r in … }`.
                """
        )
    }

    @Test func anInstanceRegisteredAsItsConcreteTypeIsSuggested() {
        let injector = appGraph()
        injector.register(StripePayments())

        let error = #expect(throws: InjectionError.self) { try injector.resolve(App.self) }
        guard case .notRegistered(_, _, let suggestions) = error else {
            Issue.record("expected notRegistered, got \(String(describing: error))")
            return
        }
        #expect(suggestions == [.conformingRegistration(DependencyKey(StripePayments.self))])
        #expect(
            error?.description == """
                Injector could not resolve any InjectorTests.PaymentService: nothing is registered for it.
                Resolution path: InjectorTests.App → InjectorTests.Checkout → any InjectorTests.PaymentService
                Suggestion: InjectorTests.StripePayments is registered and conforms to any InjectorTests.PaymentService; \
                register it as that type: `register(value as any InjectorTests.PaymentService)` \
                or `register(value, as: (any InjectorTests.PaymentService).self)`.
                To fix: register any InjectorTests.PaymentService before resolving it, \
                e.g. `injector.register((any InjectorTests.PaymentService).self) { r in … }`.
                """
        )
    }

    @Test func otherNamesOfTheSameTypeAreSuggested() {
        let injector = DependencyInjector()
        injector.register("a", name: "primary")
        injector.register("b")

        let error = #expect(throws: InjectionError.self) { try injector.resolve(String.self, name: "secondary") }
        guard case .notRegistered(_, _, let suggestions) = error else {
            Issue.record("expected notRegistered, got \(String(describing: error))")
            return
        }
        // Closest first: "primary" is 6 edits from "secondary", no name at all 9.
        #expect(suggestions == [.otherNames(["primary", nil])])
        #expect(
            error?.description == """
                Injector could not resolve Swift.String named "secondary": nothing is registered for it.
                Suggestion: The same type is registered under other names: "primary", without a name.
                To fix: register Swift.String named "secondary" before resolving it, \
                e.g. `injector.register(Swift.String.self, name: "secondary") { r in … }`.
                """
        )
    }

    /// A name two edits from a registered one is most likely a typo: the fix says so first.
    @Test func aTypoedNameLeadsTheFixWithTheRegisteredName() {
        let injector = DependencyInjector()
        injector.register("EUR", name: "currency")

        let error = #expect(throws: InjectionError.self) { try injector.resolve(String.self, name: "curency") }

        #expect(
            error?.description == """
                Injector could not resolve Swift.String named "curency": nothing is registered for it.
                Suggestion: The same type is registered under other names: "currency".
                To fix: resolve it with the name "currency", which is registered (a typo?), \
                or register Swift.String named "curency" before resolving it, \
                e.g. `injector.register(Swift.String.self, name: "curency") { r in … }`.
                """
        )
    }

    /// A protocol's key is printed `any P`, and the code the message suggests compiles under
    /// `ExistentialAny` as written.
    @Test func anExistentialIsNamedAsCodeSpellsIt() {
        let injector = DependencyInjector()

        let error = #expect(throws: InjectionError.self) { try injector.resolve((any Greeter).self) }

        #expect(
            error?.description == """
                Injector could not resolve any InjectorTests.Greeter: nothing is registered for it.
                To fix: register any InjectorTests.Greeter before resolving it, \
                e.g. `injector.register((any InjectorTests.Greeter).self) { r in … }`.
                """
        )
        #expect(DependencyKey(Any.self).typeName == "Any")
        #expect(DependencyKey((any Greeter & Sendable).self).typeName.hasPrefix("any "))
    }

    @Test func aTypeWithTheSameSimpleNameIsSuggested() {
        let injector = DependencyInjector()
        injector.register(FeatureB.Config(value: "b"))

        let error = #expect(throws: InjectionError.self) { try injector.resolve(FeatureA.Config.self) }
        guard case .notRegistered(_, _, let suggestions) = error else {
            Issue.record("expected notRegistered, got \(String(describing: error))")
            return
        }
        #expect(suggestions == [.sameSimpleName(DependencyKey(FeatureB.Config.self))])
        #expect(
            error?.description == """
                Injector could not resolve InjectorTests.FeatureA.Config: nothing is registered for it.
                Suggestion: InjectorTests.FeatureB.Config is registered; it has the same simple name as \
                InjectorTests.FeatureA.Config but is another type.
                To fix: register InjectorTests.FeatureA.Config before resolving it, \
                e.g. `injector.register(InjectorTests.FeatureA.Config.self) { r in … }`.
                """
        )
    }

    @Test func anAlreadyCreatedSingletonThatConformsIsSuggested() throws {
        let injector = DependencyInjector()
        injector.register(StripePayments.self, scope: .singleton) { _ in StripePayments() }

        // Not created yet: only running its factory could tell, and a failed resolve runs none;
        // the one concrete type registered is suggested "if it conforms" (issue 39).
        let before = #expect(throws: InjectionError.self) { try injector.resolve((any PaymentService).self) }
        #expect(
            before.map { Self.suggestions(of: $0) } == [
                .possiblyConforming(
                    DependencyKey(StripePayments.self), requested: DependencyKey((any PaymentService).self))
            ])

        _ = try injector.resolve(StripePayments.self)
        let after = #expect(throws: InjectionError.self) { try injector.resolve((any PaymentService).self) }
        #expect(after.map { Self.suggestions(of: $0) } == [.conformingRegistration(DependencyKey(StripePayments.self))])
    }

    /// A concrete type registered with a factory cannot be checked for conformance without
    /// running it; one named like the protocol is suggested, "if it conforms" (issue 39).
    @Test func aConcreteTypeNamedLikeTheProtocolIsSuggestedIfItConforms() {
        let injector = DependencyInjector()
        injector.register(LivePaymentService.self) { _ in LivePaymentService() }
        injector.register(StripePayments.self) { _ in StripePayments() }  // not named like it

        let error = #expect(throws: InjectionError.self) { try injector.resolve((any PaymentService).self) }

        #expect(
            error.map { Self.suggestions(of: $0) } == [
                .possiblyConforming(
                    DependencyKey(LivePaymentService.self), requested: DependencyKey((any PaymentService).self))
            ])
        #expect(
            error?.description == """
                Injector could not resolve any InjectorTests.PaymentService: nothing is registered for it.
                Suggestion: InjectorTests.LivePaymentService is registered with a factory; if it conforms to \
                any InjectorTests.PaymentService, add `.implements((any InjectorTests.PaymentService).self)` to its \
                registration.
                To fix: register any InjectorTests.PaymentService before resolving it, \
                e.g. `injector.register((any InjectorTests.PaymentService).self) { r in … }`.
                """)
    }

    /// The captive-dependency fix says where to resolve the scoped value: from the request's
    /// injector, in the method that needs it. (It advised a provider handle, which a singleton
    /// gets when the app builds it, so the handle resolves from the app: `outsideScope`.)
    @Test func theCaptiveDependencyFixSaysToResolveFromTheRequest() {
        let error = InjectionError.captiveDependency(
            DependencyKey(StripePayments.self), path: [], holder: DependencyKey(LivePaymentService.self),
            holderScope: .singleton)

        #expect(
            error.description.contains("from the request's injector: the one withScope passes, `current` inside it"))
        #expect(!error.description.contains("ProviderHandle<InjectorTests.StripePayments>` resolved in the scope"))
    }

    @Test func aValueRegisteredAsItsProtocolIsSuggestedWhenTheConcreteTypeIsRequested() {
        let injector = DependencyInjector()
        injector.register(StripePayments() as any PaymentService)

        let error = #expect(throws: InjectionError.self) { try injector.resolve(StripePayments.self) }
        #expect(
            error.map { Self.suggestions(of: $0) } == [.registeredAsSupertype(DependencyKey((any PaymentService).self))]
        )
        #expect(
            error?.description == """
                Injector could not resolve InjectorTests.StripePayments: nothing is registered for it.
                Suggestion: any InjectorTests.PaymentService is registered and holds a value of type \
                InjectorTests.StripePayments; resolve any InjectorTests.PaymentService instead, or register the value \
                as InjectorTests.StripePayments too: `register(value, as: InjectorTests.StripePayments.self)`.
                To fix: register InjectorTests.StripePayments before resolving it, \
                e.g. `injector.register(InjectorTests.StripePayments.self) { r in … }`.
                """
        )
    }

    @Test func namedKeysAreQuotedInThePath() {
        let injector = DependencyInjector()
        injector.register(Checkout.self, name: "express") { r in
            _ = try r.resolve(String.self, name: "paymentsKey")
            return Checkout()
        }

        let error = #expect(throws: InjectionError.self) { try injector.resolve(Checkout.self, name: "express") }
        #expect(
            error?.description == """
                Injector could not resolve Swift.String named "paymentsKey": nothing is registered for it.
                Resolution path: InjectorTests.Checkout named "express" → Swift.String named "paymentsKey"
                To fix: register Swift.String named "paymentsKey" before resolving it, \
                e.g. `injector.register(Swift.String.self, name: "paymentsKey") { r in … }`.
                """
        )
    }

    private static func suggestions(of error: InjectionError) -> [Suggestion] {
        guard case .notRegistered(_, _, let suggestions) = error else { return [] }
        return suggestions
    }

    @Test func aFailingFactoryKeepsItsOwnErrorAndThePath() {
        let injector = DependencyInjector()
        injector.register(App.self) { r in
            _ = try r.resolve(Checkout.self)
            return App()
        }
        injector.register(Checkout.self) { _ in throw SampleError(code: 42) }

        let error = #expect(throws: InjectionError.self) { try injector.resolve(App.self) }
        guard case .factoryFailed(let key, let path, let underlying) = error else {
            Issue.record("expected factoryFailed, got \(String(describing: error))")
            return
        }
        #expect(key == DependencyKey(Checkout.self))
        #expect(path == [DependencyKey(App.self), key])
        #expect(underlying as? SampleError == SampleError(code: 42))
        #expect(
            error?.description == """
                Injector could not resolve InjectorTests.Checkout: its factory, a decorator or an initCompleted hook \
                threw InjectorTests.SampleError(code: 42).
                Resolution path: InjectorTests.App → InjectorTests.Checkout
                To fix: make what is registered for InjectorTests.Checkout (its factory, decorators, initCompleted \
                hooks) succeed; the error above is its own.
                """
        )
    }

    @Test func aCycleExplainsHowToBreakIt() {
        let injector = DependencyInjector()
        injector.register(NodeA.self) { r in
            _ = try r.resolve(NodeB.self)
            return NodeA()
        }
        injector.register(NodeB.self) { r in
            _ = try r.resolve(NodeA.self)
            return NodeB()
        }

        let error = #expect(throws: InjectionError.self) { try injector.resolve(NodeA.self) }
        #expect(
            error?.description == """
                Injector found a circular dependency: InjectorTests.NodeA → InjectorTests.NodeB → InjectorTests.NodeA.
                To fix: break the cycle: let one of these types resolve the next one later \
                (with @LazyInject, or by resolving inside a method) instead of in its factory.
                """
        )
        #expect(error?.key == DependencyKey(NodeA.self))
    }

    @Test func aChainTooDeepForTheStackNamesBothEndsOfItAndTheStack() {
        let path = (0..<413).map { DependencyKey(Int.self, name: "\($0)") }
        let error = InjectionError.resolutionTooDeep(path: path, stackSize: 512 << 10)

        #expect(
            error.description == """
                Injector could not resolve Swift.Int named "412": the chain of factories that needs it is 413 deep, \
                too deep for this thread's stack (512 KB).
                Resolution path: Swift.Int named "0" → Swift.Int named "1" → Swift.Int named "2" → \
                Swift.Int named "3" → … 405 more … → Swift.Int named "409" → Swift.Int named "410" → \
                Swift.Int named "411" → Swift.Int named "412"
                To fix: resolve it on a thread with a larger stack (e.g. a `Thread` whose `stackSize` is 4 MB), \
                or shorten the chain: let a type resolve what it needs later \
                (with @LazyInject, or by resolving inside a method) instead of in its factory.
                """
        )
        #expect(error.path == path)
        #expect(error.key == path.last)
        #expect(
            InjectionError.resolutionTooDeep(path: path, stackSize: 8 << 20).description.contains("stack (8 MB)."))
    }

    @Test func aPathOfTenKeysIsShownWhole() {
        let path = (0..<10).map { DependencyKey(Int.self, name: "\($0)") }
        let error = InjectionError.resolutionTooDeep(path: path, stackSize: 512 << 10)

        let whole = path.map(\.description).joined(separator: " → ")
        #expect(error.description.split(separator: "\n")[1] == "Resolution path: \(whole)")
    }

    @Test func errorsAreTypedSoCatchNeedsNoCast() {
        let injector = DependencyInjector()
        do {
            _ = try injector.resolve(Service.self)
            Issue.record("resolve should have thrown")
        } catch .notRegistered(let key, _, _) {
            #expect(key.typeName == "InjectorTests.Service")
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    // MARK: - Messages that say what failed (found by a hunt)

    final class Report: Sendable {}
    protocol Plugin: Sendable {}
    final class Plugged: Plugin {}

    /// The message of resolving `type` from `injector`, which must fail.
    private func resolveMessage<T>(_ type: T.Type, from injector: DependencyInjector) -> String {
        do throws(InjectionError) {
            _ = try injector.resolve(type)
            return "no error"
        } catch {
            return "\(error)"
        }
    }

    /// The message of resetting `type` in `injector`, which must fail.
    private func resetMessage<T>(_ type: T.Type, in injector: DependencyInjector) -> String {
        do throws(InjectionError) {
            try injector.reset(type)
            return "no error"
        } catch {
            return "\(error)"
        }
    }

    @Test func aResetOfAKeyThatIsNotRegisteredSaysItIsAReset() {
        let message = resetMessage(Report.self, in: DependencyInjector())
        #expect(message.hasPrefix("Injector could not reset InjectorTests.InjectionErrorTests.Report"), "\(message)")
        #expect(!message.contains("resolv"), "\(message)")
    }

    /// The factory succeeded: the message must not send the user to it alone.
    @Test func aThrowingDecoratorOrHookIsNamedInTheMessage() {
        let decorated = DependencyInjector()
        decorated.register(Report.self) { _ in Report() }
        decorated.decorate(Report.self) { _, _ in throw SampleError(code: 1) }
        let hooked = DependencyInjector()
        hooked.register(Report.self) { _ in Report() }.initCompleted { _, _ in throw SampleError(code: 2) }
        for message in [resolveMessage(Report.self, from: decorated), resolveMessage(Report.self, from: hooked)] {
            #expect(!message.contains("its factory threw"), "\(message)")
            #expect(message.contains("a decorator or an initCompleted hook threw"), "\(message)")
        }
    }

    /// A waiter cancelled while a singleton is created: the factory goes on and succeeds.
    @Test func aCancelledWaitIsNotReportedAsTheFactorysFailure() async throws {
        let started = AsyncGate()
        let release = AsyncGate()
        let server = AsyncDependencyInjector()
        await server.register(Report.self, scope: .singleton) { _ in
            started.open()
            await release.wait()
            return Report()
        }
        let creator = Task { try await server.resolve(Report.self) }
        await started.wait()
        let waiter = Task { try await server.resolve(Report.self) }
        try await untilWaiting(1, for: Report.self, in: server)
        waiter.cancel()
        let message: String
        do {
            _ = try await waiter.value
            message = "no error"
        } catch {
            message = "\(error)"
        }
        release.open()
        _ = try await creator.value  // the factory succeeded
        #expect(message.contains("the resolve was cancelled"), "\(message)")
        #expect(!message.contains("threw"), "\(message)")
    }

    /// Registering the array with a scope would replace the collection: the fix is its elements'.
    @Test func aCollectionOfTransientsThatCannotBeResetIsToldToScopeItsElements() {
        let injector = DependencyInjector()
        injector.register(into: [any Plugin].self) { _ in Plugged() }
        let fix = resetMessage([any Plugin].self, in: injector).split(separator: "\n").last.map(String.init) ?? ""
        #expect(fix.contains("register(into: …, scope: .singleton)"), "\(fix)")
    }

    /// A key that forwards to a transient: the message names the key the caller reset.
    @Test func aForwardedKeyThatCannotBeResetIsNamedInTheMessage() {
        let injector = DependencyInjector()
        injector.register(Plugged.self) { _ in Plugged() }.implements((any Plugin).self)
        let message = resetMessage((any Plugin).self, in: injector)
        let reset = "Injector could not reset any InjectorTests.InjectionErrorTests.Plugin"
        #expect(message.hasPrefix(reset), "\(message)")
    }
}
