import Testing

@testable import Injector

// Objects whose `@Inject` properties the tests below leave missing. The backing storage of a
// wrapped property is a `var`, so a class that has one cannot be checked `Sendable`; these are
// created and read by one task at a time.

protocol OrderUsers: Sendable {}
protocol OrderClock: Sendable {}
struct StubUsers: OrderUsers {}
struct StubClock: OrderClock {}

final class PlaceOrder: @unchecked Sendable {
    static let usersLine = #line + 1
    @Inject var users: any OrderUsers
    @Inject var clock: any OrderClock
}

/// Holds a `PlaceOrder`, itself resolved through a wrapper.
final class Storefront: @unchecked Sendable {
    static let placeOrderLine = #line + 1
    @Inject var placeOrder: PlaceOrder
}

/// Holds a `PlaceOrder` that its factory resolved: a factory asked for by another.
final class OrderDesk: @unchecked Sendable {
    let placeOrder: PlaceOrder

    init(placeOrder: PlaceOrder) {
        self.placeOrder = placeOrder
    }
}

/// Creates a `PlaceOrder` by hand, inside it: a property two levels down.
final class OrderScreen: @unchecked Sendable {
    let model = OrderModel()
}

final class OrderModel: @unchecked Sendable {
    let placeOrder = PlaceOrder()
}

/// A class whose `@LazyInject` and `@OptionalInject` properties never fail its construction.
final class Tolerant: @unchecked Sendable {
    @LazyInject var users: any OrderUsers
    @OptionalInject var clock: (any OrderClock)?
}

private let file = "InjectorTests/WholeObjectTests.swift"

/// The message of a failed resolve of `(any OrderUsers)` requested by `PlaceOrder.users`,
/// after `before` (each step's text, outermost first).
private func missingUsersMessage(after before: [String] = []) -> String {
    let steps =
        before + ["InjectorTests.PlaceOrder.users (\(file):\(PlaceOrder.usersLine))", "any InjectorTests.OrderUsers"]
    return """
        Injector could not resolve any InjectorTests.OrderUsers: nothing is registered for it.
        Resolution path: \(steps.joined(separator: " → "))
        To fix: register any InjectorTests.OrderUsers before resolving it, \
        e.g. `injector.register((any InjectorTests.OrderUsers).self) { r in … }`.
        """
}

/// An object the injector builds is built whole or not at all (issue 26): a failed `@Inject`
/// of the object a factory builds fails the resolve, typed, with the property in the path.
@Suite struct WholeObjectTests {
    /// An injector of `face` whose wrappers resolve from `wrappers`: the injector itself, which
    /// is `DependencyInjector.current` while its factories run (the actor face's, its core).
    private func resolve<T: Sendable>(
        _ type: T.Type,
        from injector: FaceInjector,
        wrappersFrom wrappers: DependencyInjector
    ) async -> Result<T, InjectionError> {
        await DependencyInjector.$current.withValue(wrappers) {
            do throws(InjectionError) {
                return .success(try await injector.resolve(type))
            } catch {
                return .failure(error)
            }
        }
    }

    /// The sync injector the wrappers resolve from: the face's own, or the actor face's core,
    /// which its factories bind as `DependencyInjector.current`.
    private func wrapperInjector(for injector: FaceInjector) -> DependencyInjector {
        switch injector.base {
        case .sync(let own): own
        case .async(let face): face.core
        }
    }

    @Test(arguments: Face.allCases)
    func aFailedPropertyOfWhatAFactoryBuiltFailsTheResolve(face: Face) async throws {
        let injector = face.makeInjector()
        let wrappers = wrapperInjector(for: injector)
        wrappers.register(StubClock() as any OrderClock)
        await injector.register(PlaceOrder.self) { PlaceOrder() }

        let outcome = await resolve(PlaceOrder.self, from: injector, wrappersFrom: wrappers)

        guard case .failure(let error) = outcome, case .notRegistered(let key, let path, _) = error else {
            Issue.record("expected notRegistered, got \(outcome)")
            return
        }
        #expect(key == DependencyKey((any OrderUsers).self))
        #expect(path == [DependencyKey(PlaceOrder.self), DependencyKey((any OrderUsers).self)])
        let property = try #require(path.last?.property)
        #expect(property.ownerTypeName == "InjectorTests.PlaceOrder")
        #expect(property.name == "users")
        #expect(property.fileID == file)
        #expect(property.line == PlaceOrder.usersLine)
        #expect(error.description == missingUsersMessage())
    }

    /// A transient that another factory asks for (on the actor face, an async factory run
    /// inside the other's, in its bindings) fails the outer resolve when a property of what it
    /// built fails, with both keys in the path.
    @Test(arguments: Face.allCases)
    func aFailedPropertyOfWhatANestedFactoryBuiltFailsTheOuterResolve(face: Face) async throws {
        let injector = face.makeInjector()
        let wrappers = wrapperInjector(for: injector)
        wrappers.register(StubClock() as any OrderClock)
        switch injector.base {
        case .sync(let sync):
            sync.register(PlaceOrder.self) { _ in PlaceOrder() }
            sync.register(OrderDesk.self) { r in try OrderDesk(placeOrder: r.resolve()) }
        case .async(let actor):
            await actor.register(PlaceOrder.self) { _ async in PlaceOrder() }
            await actor.register(OrderDesk.self) { r async throws in try await OrderDesk(placeOrder: r.resolve()) }
        }

        let outcome = await resolve(OrderDesk.self, from: injector, wrappersFrom: wrappers)

        guard case .failure(let error) = outcome, case .notRegistered(let key, let path, _) = error else {
            Issue.record("expected notRegistered, got \(outcome)")
            return
        }
        #expect(key == DependencyKey((any OrderUsers).self))
        #expect(
            path == [
                DependencyKey(OrderDesk.self), DependencyKey(PlaceOrder.self), DependencyKey((any OrderUsers).self),
            ])
        #expect(path.last?.property?.name == "users")
    }

    @Test(arguments: Face.allCases)
    func aSingletonWhosePropertyFailedIsNotKeptAndBuiltAgainLater(face: Face) async throws {
        let injector = face.makeInjector()
        let wrappers = wrapperInjector(for: injector)
        wrappers.register(StubClock() as any OrderClock)
        let runs = Counter()
        await injector.register(PlaceOrder.self, scope: .singleton) {
            _ = runs.increment()
            return PlaceOrder()
        }

        let failed = await resolve(PlaceOrder.self, from: injector, wrappersFrom: wrappers)
        wrappers.register(StubUsers() as any OrderUsers)
        let first = try await resolve(PlaceOrder.self, from: injector, wrappersFrom: wrappers).get()
        let second = try await resolve(PlaceOrder.self, from: injector, wrappersFrom: wrappers).get()

        #expect(throws: InjectionError.self) { try failed.get() }
        #expect(first === second)
        #expect(runs.value == 2)  // the failed one was not kept
        #expect(try first.$users.get() is StubUsers)
    }

    @Test(arguments: Face.allCases)
    func theCompletionOfAValueWhosePropertyFailedDoesNotRun(face: Face) async {
        let completions = Counter()
        let wrappers = DependencyInjector()
        let outcome: Result<PlaceOrder, InjectionError>
        switch face {
        case .sync:
            wrappers.register(PlaceOrder.self) { _ in PlaceOrder() }.initCompleted { _, _ in _ = completions.increment()
            }
            outcome = await resolve(PlaceOrder.self, from: FaceInjector(.sync(wrappers)), wrappersFrom: wrappers)
        case .async:
            let injector = AsyncDependencyInjector()
            await injector.register(PlaceOrder.self) { _ in PlaceOrder() }
                .initCompleted { _, _ in _ = completions.increment() }
            outcome = await resolve(PlaceOrder.self, from: FaceInjector(.async(injector)), wrappersFrom: wrappers)
        }

        #expect(throws: InjectionError.self) { try outcome.get() }
        #expect(completions.value == 0)
    }

    @Test(arguments: Face.allCases)
    func eachPropertyOnTheWayIsNamedInThePath(face: Face) async {
        let injector = face.makeInjector()
        let wrappers = wrapperInjector(for: injector)
        wrappers.register(StubClock() as any OrderClock)
        // `Storefront.placeOrder` resolves `PlaceOrder` through the wrappers' injector.
        wrappers.register(PlaceOrder.self) { _ in PlaceOrder() }
        await injector.register(Storefront.self) { Storefront() }

        let outcome = await resolve(Storefront.self, from: injector, wrappersFrom: wrappers)

        guard case .failure(let error) = outcome else {
            Issue.record("expected a failure, got \(outcome)")
            return
        }
        #expect(
            error.description
                == missingUsersMessage(after: [
                    "InjectorTests.Storefront.placeOrder (\(file):\(Storefront.placeOrderLine))"
                ]))
    }

    @Test func theFailureReachesEveryResolvingAPI() throws {
        let injector = DependencyInjector()
        injector.register(StubClock() as any OrderClock)
        injector.register(PlaceOrder.self) { _ in PlaceOrder() }
        injector.register(PlaceOrder.self, name: "for a customer") { (_, customer: String) in PlaceOrder() }

        #expect(throws: InjectionError.self) { try injector.resolve(PlaceOrder.self) }
        #expect(throws: InjectionError.self) {
            try injector.resolve(PlaceOrder.self, name: "for a customer", arguments: "ada")
        }
        #expect(throws: InjectionError.self) { try injector.provider(for: PlaceOrder.self)() }
        #expect(throws: InjectionError.self) { try injector.resolve(PlaceOrder?.self) }
        // A property whose resolve built a broken object holds the failure.
        let storefront = DependencyInjector.$current.withValue(injector) { Storefront() }
        #expect(throws: InjectionError.self) { try storefront.$placeOrder.get() }
    }

    /// A `@LazyInject` is checked, not resolved: registered with a broken factory, it fails
    /// only when read (issue 39). An `@OptionalInject` never fails the construction.
    @Test func registeredLazyAndOptionalPropertiesDoNotFailTheObjectsConstruction() throws {
        let injector = DependencyInjector()
        injector.register(Tolerant.self) { _ in Tolerant() }
        injector.register((any OrderClock).self) { r in try r.resolve(StubClock.self) }  // broken
        injector.register((any OrderUsers).self) { r in try r.resolve(StubUsers.self) }  // broken

        let tolerant = try injector.resolve(Tolerant.self)

        #expect(tolerant.clock == nil)
        #expect(throws: InjectionError.self) { try tolerant.$clock.get() }
        #expect(throws: InjectionError.self) { try tolerant.$users.get() }  // resolved now, on demand
    }

    /// A graph value whose completion failed is not handed to a later request of the same
    /// resolve: it is not whole.
    @Test func aGraphValueWhoseCompletionFailedIsNotSharedWithTheRestOfTheResolve() throws {
        let injector = DependencyInjector()
        let runs = Counter()
        injector.register(Service.self, scope: .graph) { _ in Service(label: "run \(runs.increment())") }
            .initCompleted { _, service in
                if service.label == "run 1" { throw SampleError(code: 1) }
            }
        injector.register(String.self) { r in
            _ = try? r.resolve(Service.self)  // the first completion fails
            return try r.resolve(Service.self).label
        }

        #expect(try injector.resolve(String.self) == "run 2")
    }

    @Test func aFactoryThatHandlesANestedFailureSucceeds() throws {
        let injector = DependencyInjector()
        injector.register(StubClock() as any OrderClock)
        injector.register(PlaceOrder.self) { _ in PlaceOrder() }
        injector.register(String.self) { r in (try? r.resolve(PlaceOrder.self)) == nil ? "fallback" : "placed" }

        #expect(try injector.resolve(String.self) == "fallback")
    }
}

/// `make`: checked construction for objects created by hand (issue 26).
@Suite struct CheckedConstructionTests {
    @Test func makeThrowsTheFailureOfAPropertyOfWhatItCreates() {
        let injector = DependencyInjector()
        injector.register(StubClock() as any OrderClock)

        #expect(throws: InjectionError.self) { try injector.make { PlaceOrder() } }
        do {
            _ = try injector.make { PlaceOrder() }
        } catch {
            #expect(error.description == missingUsersMessage())
        }
    }

    @Test func makeFindsThePropertyInsideWhatTheObjectHolds() {
        let injector = DependencyInjector()
        injector.register(StubClock() as any OrderClock)

        do {
            _ = try injector.make { OrderScreen() }
            Issue.record("expected a failure")
        } catch {
            #expect(error.description == missingUsersMessage())
        }
    }

    @Test func makeReturnsTheObjectWhenEveryPropertyResolves() throws {
        let injector = DependencyInjector()
        injector.register(StubClock() as any OrderClock)
        injector.register(StubUsers() as any OrderUsers)

        // The properties resolve from the injector, whatever `current` is.
        let order = try DependencyInjector.$current.withValue(DependencyInjector()) {
            try injector.make { PlaceOrder() }
        }

        #expect(try order.$users.get() is StubUsers)
    }

    @Test func anErrorTheBodyThrowsIsAFactoryFailureOfTheType() {
        let injector = DependencyInjector()
        do {
            _ = try injector.make { () throws -> PlaceOrder in throw SampleError(code: 7) }
            Issue.record("expected a failure")
        } catch .factoryFailed(let key, let path, let underlying) {
            #expect(key == DependencyKey(PlaceOrder.self))
            #expect(path == [key])
            #expect(underlying as? SampleError == SampleError(code: 7))
        } catch {
            Issue.record("expected factoryFailed, got \(error)")
        }
    }

    @Test func asyncMakeChecksPropertiesAcrossSuspensionsAndChildTasks() async {
        let injector = DependencyInjector()
        injector.register(StubClock() as any OrderClock)

        let afterSuspension = await outcome {
            try await injector.make { () async -> PlaceOrder in
                await Task.yield()
                return PlaceOrder()
            }
        }
        let inChildTask = await outcome {
            try await injector.make { () async -> [PlaceOrder] in
                async let order = PlaceOrder()
                return await [order]
            }
        }

        #expect(afterSuspension?.description == missingUsersMessage())
        #expect(inChildTask?.description == missingUsersMessage())
    }

    @Test func asyncMakeReturnsTheObjectWhenEveryPropertyResolves() async throws {
        let injector = DependencyInjector()
        injector.register(StubClock() as any OrderClock)
        injector.register(StubUsers() as any OrderUsers)

        let order = try await injector.make { () async -> PlaceOrder in
            await Task.yield()
            return PlaceOrder()
        }

        #expect(try order.$clock.get() is StubClock)
    }

    /// The error `body` throws, or `nil`.
    private func outcome<T>(_ body: () async throws -> T) async -> InjectionError? {
        do {
            _ = try await body()
            return nil
        } catch {
            return error as? InjectionError
        }
    }
}

/// A `@LazyInject` whose property's key nothing can answer fails the construction of what a
/// builder makes (a factory, `make`), found without running any factory; read by hand, it
/// still resolves on first read (issue 39).
final class LazyOrder: @unchecked Sendable {
    static let usersLine = #line + 1
    @LazyInject var users: any OrderUsers
}

/// Lazy properties that no registration is needed for: an optional, a provider handle.
final class LazyWithoutRegistrations: @unchecked Sendable {
    @LazyInject var users: (any OrderUsers)?
    @LazyInject var clock: ProviderHandle<any OrderClock>
}

@Suite struct LazyDependenciesCheckedAtConstructionTests {
    /// The message of a missing `(any OrderUsers)` asked for by `LazyOrder.users`.
    private func missingLazyUsersMessage() -> String {
        """
        Injector could not resolve any InjectorTests.OrderUsers: nothing is registered for it.
        Resolution path: InjectorTests.LazyOrder.users (\(file):\(LazyOrder.usersLine)) → any InjectorTests.OrderUsers
        To fix: register any InjectorTests.OrderUsers before resolving it, \
        e.g. `injector.register((any InjectorTests.OrderUsers).self) { r in … }`.
        """
    }

    @Test func makeThrowsAForgottenLazyRegistrationWithThePropertyInThePath() {
        let injector = DependencyInjector()

        do {
            _ = try injector.make { LazyOrder() }
            Issue.record("expected a failure")
        } catch {
            #expect(error.description == missingLazyUsersMessage())
        }
    }

    @Test func makeChecksALazyDependencyWithoutBuildingIt() throws {
        let injector = DependencyInjector()
        let runs = Counter()
        injector.register((any OrderUsers).self) { _ in
            runs.increment()
            return StubUsers()
        }

        let order = try injector.make { LazyOrder() }

        #expect(runs.value == 0)
        #expect(order.users is StubUsers)
        #expect(runs.value == 1)
    }

    @Test func asyncMakeChecksLazyPropertiesAcrossSuspensions() async {
        let injector = DependencyInjector()

        do {
            _ = try await injector.make { () async -> LazyOrder in
                await Task.yield()
                return LazyOrder()
            }
            Issue.record("expected a failure")
        } catch {
            #expect(error.description == missingLazyUsersMessage())
        }
    }

    @Test(arguments: Face.allCases)
    func aForgottenLazyRegistrationFailsTheResolveOfWhatAFactoryBuilt(face: Face) async {
        let injector = face.makeInjector()
        switch injector.base {
        case .sync(let sync): sync.register(LazyOrder.self) { _ in LazyOrder() }
        case .async(let actor): await actor.register(LazyOrder.self) { _ async in LazyOrder() }
        }

        do throws(InjectionError) {
            _ = try await injector.resolve(LazyOrder.self)
            Issue.record("expected a failure")
        } catch {
            #expect(error.description == missingLazyUsersMessage())
            #expect(error.path.first == DependencyKey(LazyOrder.self))
        }
    }

    @Test func aStrictScopeRefusesALazyDependencyTheTestDidNotProvide() throws {
        let app = DependencyInjector()
        app.register((any OrderUsers).self) { _ in StubUsers() }

        var refused: InjectionError?
        // Recorded on the test too, as a resolve's refusal is: the code may swallow it.
        withKnownIssue {
            refused = app.withOverrides(strict: true, { _ in }) { () -> InjectionError? in
                do throws(InjectionError) {
                    _ = try DependencyInjector.current.make { LazyOrder() }
                    return nil
                } catch {
                    return error
                }
            }
        } matching: {
            $0.description.contains("refused to resolve any InjectorTests.OrderUsers")
        }
        let provided = try app.withOverrides(strict: true, { $0.register(StubUsers() as any OrderUsers) }) {
            try DependencyInjector.current.make { LazyOrder() }.users
        }

        guard case .notProvidedInTest(let key, let path, _) = refused else {
            Issue.record("expected notProvidedInTest, got \(String(describing: refused))")
            return
        }
        #expect(key == DependencyKey((any OrderUsers).self))
        #expect(path.last?.property?.name == "users")
        #expect(provided is StubUsers)
    }

    @Test func lazyPropertiesThatNeedNoRegistrationPassTheCheck() throws {
        let injector = DependencyInjector()

        let made = try injector.make { LazyWithoutRegistrations() }

        #expect(made.users == nil)
        #expect(throws: InjectionError.self) { try made.clock() }
    }

    /// Made by hand, the property stays lazy: a registration made before its first read is used.
    @Test func aLazyPropertyOfAnObjectMadeByHandIsNotChecked() {
        let injector = DependencyInjector()
        let order = DependencyInjector.$current.withValue(injector) { LazyOrder() }

        injector.register(StubUsers() as any OrderUsers)

        #expect(order.users is StubUsers)
    }
}
