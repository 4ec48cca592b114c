import Injector
import TestSupport
import Testing

protocol Charging: Sendable {}
protocol Refunding: Sendable {}
protocol Payouts: Sendable {}
final class Stripe: Charging, Refunding, Sendable {}

/// `implements`: one registration, several keys, one instance.
@Suite struct ImplementsTests {
    /// Registers `Stripe` as a singleton that also answers `Charging` and `Refunding`.
    private func registerStripe(into injector: FaceInjector, created: Counter, also extra: Bool = false) async {
        switch injector.base {
        case .sync(let injector):
            let registered = injector.register(Stripe.self, scope: .singleton) { _ in
                created.increment()
                return Stripe()
            }.implements((any Charging).self, (any Refunding).self)
            if extra { registered.implements((any Payouts).self) }
        case .async(let injector):
            let registered = await injector.register(Stripe.self, scope: .singleton) { _ in
                created.increment()
                return Stripe()
            }.implements((any Charging).self, (any Refunding).self)
            if extra { registered.implements((any Payouts).self) }
        }
    }

    @Test(arguments: Face.allCases)
    func aForwardedSingletonResolvedThroughThreeKeysFromManyTasksIsCreatedOnce(face: Face) async throws {
        let injector = face.makeInjector()
        let created = Counter()
        await registerStripe(into: injector, created: created)

        let instances = try await withThrowingTaskGroup(of: ObjectIdentifier.self) { group in
            for index in 0..<300 {
                group.addTask {
                    switch index % 3 {
                    case 0: ObjectIdentifier(try await injector.resolve(Stripe.self))
                    case 1: ObjectIdentifier(try await injector.resolve((any Charging).self) as AnyObject)
                    default: ObjectIdentifier(try await injector.resolve((any Refunding).self) as AnyObject)
                    }
                }
            }
            return try await group.reduce(into: Set()) { $0.insert($1) }
        }
        #expect(created.value == 1)
        #expect(instances.count == 1)
    }

    @Test func aForwardedSingletonResolvedFromEightThreadsIsCreatedOnce() throws {
        let injector = DependencyInjector()
        let created = Counter()
        injector.register(Stripe.self, scope: .singleton) { _ in
            created.increment()
            return Stripe()
        }.implements((any Charging).self, (any Refunding).self)

        let seen = Collected<ObjectIdentifier>()
        runOnThreads(8) { index in
            for _ in 0..<1_000 {
                let value: AnyObject? =
                    switch index % 3 {
                    case 0: try? injector.resolve(Stripe.self)
                    case 1: try? injector.resolve((any Charging).self) as AnyObject
                    default: try? injector.resolve((any Refunding).self) as AnyObject
                    }
                if let value { seen.append(ObjectIdentifier(value)) }
            }
        }
        #expect(created.value == 1)
        #expect(seen.values.count == 8_000)
        #expect(Set(seen.values).count == 1)
    }

    @Test(arguments: Face.allCases)
    func aForwardedTypeTheValueDoesNotConformToThrowsNotImplemented(face: Face) async {
        let injector = face.makeInjector()
        await registerStripe(into: injector, created: Counter(), also: true)

        let error = await injector.resolveError((any Payouts).self)
        guard case .notImplemented(let key, let path, let implementation) = error else {
            Issue.record("expected notImplemented, got \(String(describing: error))")
            return
        }
        #expect(key == DependencyKey((any Payouts).self))
        #expect(path == [key])
        #expect(implementation == DependencyKey(Stripe.self))
        #expect(
            error?.description == """
                Injector could not resolve any InjectorTests.Payouts: it is forwarded to the registration of \
                InjectorTests.Stripe (`implements`), whose value cannot be used as any InjectorTests.Payouts.
                To fix: make InjectorTests.Stripe conform to any InjectorTests.Payouts, or take any InjectorTests.Payouts \
                out of that registration's `implements(…)`.
                """)
    }

    /// DESIGN.md principle 3: a fix a person can follow. A concrete type forwarded to is no
    /// conformance to add (a hunt found "make InjectorTests.Stripe conform to
    /// InjectorTests.Ledger", for a struct): the fix says to register it on its own.
    @Test func aConcreteForwardedTypeIsNotAConformanceToAdd() {
        struct Ledger {}
        let injector = DependencyInjector()
        injector.register(Stripe.self, scope: .singleton) { _ in Stripe() }.implements(Ledger.self)
        var error: InjectionError?
        do throws(InjectionError) { _ = try injector.resolve(Ledger.self) } catch let failure { error = failure }
        guard case .notImplemented = error else {
            Issue.record("expected notImplemented, got \(String(describing: error))")
            return
        }
        let message = error?.description ?? ""
        #expect(!message.contains("conform to"), "\(message)")
        #expect(message.contains("register InjectorTests"), "\(message)")
    }

    @Test(arguments: Face.allCases)
    func aKeyUnderAnotherNameForwardsToTheNamedRegistration(face: Face) async throws {
        let injector = face.makeInjector()
        let created = Counter()
        switch injector.base {
        case .sync(let injector):
            injector.register(Stripe.self, name: "stripe", scope: .singleton) { _ in
                created.increment()
                return Stripe()
            }
            .implements((any Charging).self, (any Refunding).self, name: "primary")
            .implements((any Charging).self, name: nil)
        case .async(let injector):
            await injector.register(Stripe.self, name: "stripe", scope: .singleton) { _ in
                created.increment()
                return Stripe()
            }
            .implements((any Charging).self, (any Refunding).self, name: "primary")
            .implements((any Charging).self, name: nil)
        }

        let stripe = try await injector.resolve(Stripe.self, name: "stripe")
        #expect(try await injector.resolve((any Charging).self, name: "primary") as AnyObject === stripe)
        #expect(try await injector.resolve((any Refunding).self, name: "primary") as AnyObject === stripe)
        #expect(try await injector.resolve((any Charging).self) as AnyObject === stripe)
        #expect(created.value == 1)
        // Only the keys asked for: the registration's own name is not forwarded too.
        #expect(await injector.resolveError((any Charging).self, name: "stripe") != nil)
        let forwarded = await injector.registrations.filter { $0.forwardedTo != nil }
        #expect(
            Set(forwarded.map(\.key)) == [
                DependencyKey((any Charging).self, name: "primary"),
                DependencyKey((any Refunding).self, name: "primary"),
                DependencyKey((any Charging).self),
            ])
        #expect(forwarded.allSatisfy { $0.forwardedTo == DependencyKey(Stripe.self, name: "stripe") })
    }

    /// A registration whose value is `nil` forwards that `nil`: the forwarded key's untyped
    /// read of its target took the `nil` for "nothing registered" and threw `notRegistered`.
    @Test(arguments: Face.allCases)
    func aForwardedNilIsForwarded(face: Face) async throws {
        let injector = face.makeInjector()
        switch injector.base {
        case .sync(let injector):
            injector.register(String?.self) { _ in nil }.implements((any Sendable)?.self)
        case .async(let injector):
            await injector.register(String?.self) { _ in nil }.implements((any Sendable)?.self)
        }
        #expect(try await injector.resolve((any Sendable)?.self) == nil)
    }

    @Test(arguments: Face.allCases)
    func aForwardedKeyWhoseTargetIsGoneReportsTheTargetMissing(face: Face) async {
        let injector = face.makeInjector()
        await registerStripe(into: injector, created: Counter())
        await injector.unregister(Stripe.self)

        let error = await injector.resolveError((any Charging).self)
        guard case .notRegistered(let key, let path, _) = error else {
            Issue.record("expected notRegistered, got \(String(describing: error))")
            return
        }
        #expect(key == DependencyKey(Stripe.self))
        #expect(path == [DependencyKey((any Charging).self), DependencyKey(Stripe.self)])
    }

    @Test(arguments: Face.allCases)
    func theGraphHasAnEdgeFromEachForwardedKeyToItsTarget(face: Face) async {
        let injector = face.makeInjector()
        await registerStripe(into: injector, created: Counter())

        let edges = await injector.graph().edges
        #expect(
            edges.contains(
                DependencyGraph.Edge(from: DependencyKey((any Charging).self), to: DependencyKey(Stripe.self))))
        #expect(
            edges.contains(
                DependencyGraph.Edge(from: DependencyKey((any Refunding).self), to: DependencyKey(Stripe.self))))
    }

    @Test(arguments: Face.allCases)
    func registrationsListEachForwardedKeyWithItsTarget(face: Face) async {
        let injector = face.makeInjector()
        await registerStripe(into: injector, created: Counter())

        let forwarded = await injector.registrations.filter { $0.forwardedTo != nil }
        #expect(forwarded.map(\.key) == [DependencyKey((any Charging).self), DependencyKey((any Refunding).self)])
        #expect(forwarded.allSatisfy { $0.forwardedTo == DependencyKey(Stripe.self) })
        #expect(
            forwarded.first?.description == "any InjectorTests.Charging (transient, forwards to InjectorTests.Stripe)")
    }
}
