import Injector
import TestSupport
import Testing

/// `.scoped` on both faces: one value per opened scope, registered once at the root; values
/// each scope provides (`declareScoped`); lifetimes checked at resolve and by `verify()`.
@Suite struct ScopedLifetimeTests {
    /// The request a scope serves: provided by each scope.
    struct RequestContext: Sendable {
        let id: Int
    }

    /// One per request, shared by every resolve in it.
    final class Transaction: Sendable {
        let request: Int
        init(request: Int) { self.request = request }
    }

    final class Handler: Sendable {
        let transaction: Transaction
        init(transaction: Transaction) { self.transaction = transaction }
    }

    /// An app singleton.
    final class AuditLog: Sendable {
        let transaction: Transaction
        init(transaction: Transaction) { self.transaction = transaction }
    }

    /// A root with `RequestContext` declared, `Transaction` scoped (built from the request) and
    /// `Handler` transient; `made` counts the transactions.
    private func app(_ face: Face, made: Collected<Int>) async -> FaceInjector {
        let app = face.makeInjector()
        await app.declareScoped(RequestContext.self)
        await app.register(Transaction.self, scope: .scoped, resolving: RequestContext.self) {
            made.append($0.id)
            return Transaction(request: $0.id)
        }
        await app.register(Handler.self, resolving: Transaction.self) { Handler(transaction: $0) }
        return app
    }

    @Test(arguments: Face.allCases)
    func aScopedValueIsOnePerScopeSharedByEveryResolveInIt(face: Face) async throws {
        let made = Collected<Int>()
        let app = await app(face, made: made)
        let first = app.openScope()
        await first.register(RequestContext(id: 1))
        let second = app.openScope()
        await second.register(RequestContext(id: 2))

        let handler = try await first.resolve(Handler.self)
        #expect(try await first.resolve(Transaction.self) === handler.transaction)
        #expect(try await first.child().resolve(Handler.self).transaction === handler.transaction)
        let other = try await second.resolve(Handler.self)
        #expect(other.transaction !== handler.transaction)
        #expect(handler.transaction.request == 1)
        #expect(other.transaction.request == 2)
        #expect(made.values.sorted() == [1, 2])
    }

    @Test(arguments: Face.allCases)
    func scopedValuesThatNeedEachOtherAreACycleWithItsPath(face: Face) async {
        let app = face.makeInjector()
        await app.register(NodeA.self, scope: .scoped, resolving: NodeB.self) { _ in NodeA() }
        await app.register(NodeB.self, scope: .scoped, resolving: NodeA.self) { _ in NodeB() }
        let request = app.openScope()

        let error = await request.resolveError(NodeA.self)
        guard case .circularDependency(let path) = error else {
            Issue.record("expected circularDependency, got \(String(describing: error))")
            return
        }
        #expect(path == [DependencyKey(NodeA.self), DependencyKey(NodeB.self), DependencyKey(NodeA.self)])
        // Nothing half-made is kept: the same resolve fails the same way again.
        #expect(cycleNames(await request.resolveError(NodeB.self)) == ["NodeB", "NodeA", "NodeB"])
    }

    @Test(arguments: Face.allCases)
    func aScopeOpenedInsideAnotherKeepsValuesOfItsOwn(face: Face) async throws {
        let app = face.makeInjector()
        await app.register(Service.self, scope: .scoped) { Service() }
        let outer = app.openScope()
        let inner = outer.openScope()
        let fromOuter = try await outer.resolve(Service.self)
        #expect(try await inner.resolve(Service.self) !== fromOuter)
        #expect(try await outer.child().resolve(Service.self) === fromOuter)
    }

    @Test(arguments: Face.allCases)
    func aScopedRegistrationBelowTheScopeIsKeptByTheScopeAboveIt(face: Face) async throws {
        let app = face.makeInjector()
        let request = app.openScope()
        let below = request.child()
        await below.register(Service.self, scope: .scoped) { Service() }
        let value = try await below.resolve(Service.self)
        #expect(try await below.resolve(Service.self) === value)
        #expect(try await below.child().resolve(Service.self) === value)
        let listed = await below.registrations.first { $0.key == DependencyKey(Service.self) }
        #expect(listed?.isCreated == true)
    }

    /// A child below an opened scope builds its own `.scoped` registration's value, which the
    /// scope keeps: with the child's registrations and decorators, as it builds its own
    /// singleton. (Catches: the scope built it, with its own, so the child's decorator never
    /// wrapped it, and its factory could not find what the child registered, with a message
    /// that called it a singleton of an ancestor.)
    @Test func aScopedRegistrationBelowTheScopeIsBuiltByTheChildThatHoldsIt() async throws {
        for face in Face.allCases {
            let request = face.makeInjector().openScope()
            let below = request.child()
            await below.register(7, name: "n")
            switch below.base {
            case .sync(let injector):
                injector.register(Service.self, scope: .scoped) { r in
                    try Service(label: "\(r.resolve(Int.self, name: "n"))")
                }
                injector.decorate(Service.self) { _, inner in Service(label: "decorated " + inner.label) }
            case .async(let injector):
                await injector.register(Service.self, scope: .scoped) { r in
                    try await Service(label: "\(r.resolve(Int.self, name: "n"))")
                }
                await injector.decorate(Service.self) { _, inner in Service(label: "decorated " + inner.label) }
            }
            let value = try await below.resolve(Service.self)
            #expect(value.label == "decorated 7", "\(face)")
            #expect(try await below.resolve(Service.self) === value)  // kept by the scope
            try await request.close()
        }
    }

    @Test(arguments: Face.allCases)
    func aScopedValueOutsideAnyScopeIsATypedError(face: Face) async throws {
        let app = face.makeInjector()
        await app.register(Service.self, scope: .scoped) { Service() }
        let error = await app.child().resolveError(Service.self)
        guard case .outsideScope(let key, let path)? = error else {
            Issue.record("expected outsideScope, got \(String(describing: error))")
            return
        }
        #expect(key == DependencyKey(Service.self))
        #expect(path == [key])
        #expect(error?.description.contains("openScope()") == true)
    }

    @Test(arguments: Face.allCases)
    func aValueTheScopeDidNotProvideSaysSo(face: Face) async throws {
        let app = await app(face, made: Collected())
        let error = await app.openScope().resolveError(Handler.self)
        guard case .notProvidedByScope(let key, let path, let site)? = error else {
            Issue.record("expected notProvidedByScope, got \(String(describing: error))")
            return
        }
        #expect(key == DependencyKey(RequestContext.self))
        #expect(path == [DependencyKey(Handler.self), DependencyKey(Transaction.self), key])
        #expect(site.fileID == "InjectorTests/Faces+Scoped.swift")
        #expect(error?.description.contains("request.register(value as ") == true)
        // In a test, the scope that provides it is the test's.
        let inTest =
            "`$0.register(value as InjectorTests.ScopedLifetimeTests.RequestContext)` in its `.injecting` closure"
        #expect(error?.description.contains(inTest) == true)
    }

    @Test(arguments: Face.allCases)
    func aSingletonThatKeepsAScopedValueIsACaptiveDependency(face: Face) async throws {
        let app = await app(face, made: Collected())
        await app.register(AuditLog.self, scope: .singleton, resolving: Handler.self) {
            AuditLog(transaction: $0.transaction)
        }
        let request = app.openScope()
        await request.register(RequestContext(id: 1))
        let error = await request.resolveError(AuditLog.self)
        guard case .captiveDependency(let key, let path, let holder, let holderScope)? = error else {
            Issue.record("expected captiveDependency, got \(String(describing: error))")
            return
        }
        // Through the transient Handler: the singleton would keep the Handler, and with it the
        // request's transaction.
        #expect(key == DependencyKey(Transaction.self))
        #expect(path == [DependencyKey(AuditLog.self), DependencyKey(Handler.self), key])
        #expect(holder == DependencyKey(AuditLog.self))
        #expect(holderScope == .singleton)
        #expect(error?.description.contains("captive dependency") == true)
        // A test scope builds its own copy of the singleton: the same error, not a pass.
        let test = app.child(singletons: .own).openScope()
        await test.register(RequestContext(id: 2))
        guard case .captiveDependency? = await test.resolveError(AuditLog.self) else {
            Issue.record("a singleton built below the scope still outlives it")
            return
        }
    }

    /// A captive dependency met where no scope is open (a plain child) is fixed as its message
    /// says: `.scoped` alone fails there too (`outsideScope`); resolved in an opened scope, it
    /// works. (Catches: the message advised `.scoped`, not where to resolve it.)
    @Test(arguments: Face.allCases)
    func aCaptiveDependencyInAPlainChildIsFixedAsItsMessageSays(face: Face) async throws {
        let app = await app(face, made: Collected())
        await app.register(AuditLog.self, scope: .singleton, resolving: Transaction.self) { AuditLog(transaction: $0) }
        let child = app.child()
        await child.register(RequestContext(id: 1))
        let message = await child.resolveError(AuditLog.self)?.description ?? ""
        #expect(
            message.contains(
                "To fix: make InjectorTests.ScopedLifetimeTests.AuditLog `.scoped` too (resolved in an opened scope), ")
        )
        await app.register(AuditLog.self, scope: .scoped, resolving: Transaction.self) { AuditLog(transaction: $0) }
        guard case .outsideScope? = await child.resolveError(AuditLog.self) else {
            Issue.record("`.scoped` resolved where no scope is open")
            return
        }
        let request = child.openScope()
        await request.register(RequestContext(id: 2))
        #expect(try await request.resolve(AuditLog.self).transaction.request == 2)
        try await request.close()
    }

    @Test(arguments: Face.allCases)
    func aSingletonRegisteredInsideTheScopeMayKeepItsValues(face: Face) async throws {
        let app = await app(face, made: Collected())
        let request = app.openScope()
        await request.register(RequestContext(id: 3))
        await request.register(AuditLog.self, scope: .singleton, resolving: Transaction.self) {
            AuditLog(transaction: $0)
        }
        let log = try await request.resolve(AuditLog.self)
        #expect(log.transaction === (try await request.resolve(Transaction.self)))
    }

    @Test(arguments: Face.allCases)
    func verifyReportsACaptiveDependencyAndPassesACorrectScopedGraph(face: Face) async throws {
        let app = await app(face, made: Collected())
        try await app.verify()  // RequestContext is provided by each scope: no request needed

        await app.register(AuditLog.self, scope: .singleton, resolving: Transaction.self) {
            AuditLog(transaction: $0)
        }
        let failures = await app.verificationError()?.failures ?? []
        #expect(failures.count == 1)
        guard case .captiveDependency(_, _, let holder, _)? = failures.first else {
            Issue.record("expected a captive dependency, got \(failures)")
            return
        }
        #expect(holder == DependencyKey(AuditLog.self))
    }

    /// Regression: a singleton registered inside a scope may keep the scope's values (it lives
    /// no longer than the scope), but `verify()`, a test scope and a preview scope over that
    /// scope (which keep their own copies of it, inside the scope) reported it as captive.
    @Test(arguments: Face.allCases)
    func aSingletonRegisteredInAScopeMayKeepItsScopedValuesInEveryScopeOpenedInside(face: Face) async throws {
        let app = face.makeInjector()
        await app.register(Transaction.self, scope: .scoped) { Transaction(request: 1) }
        let request = app.openScope()
        await request.register(AuditLog.self, scope: .singleton, resolving: Transaction.self) {
            AuditLog(transaction: $0)
        }
        let audit = try await request.resolve(AuditLog.self)
        #expect(try await request.resolve(Transaction.self) === audit.transaction)
        try await request.verify()
        let copy = try await request.withOverrides({ _ in }) {
            try await face.currentInjector.resolve(AuditLog.self)
        }
        #expect(copy !== audit)  // the test scope's own copy, with the test scope's transaction
        if case .sync(let injector) = request.base {
            #expect(throws: Never.self) { try injector.previewScope().resolve(AuditLog.self) }
        }
        try await request.close()
    }

    /// What nothing registers: a scoped handler asks for it besides the request.
    final class PaymentService: Sendable {}

    /// A scoped handler that asks for the declared request and for a payment service that
    /// nothing registers, in the order given.
    private func appWithHandler(_ face: Face, requestFirst: Bool) async -> FaceInjector {
        let app = face.makeInjector()
        switch app.base {
        case .sync(let injector):
            injector.declareScoped(RequestContext.self).inTests { _ in RequestContext(id: 0) }
            injector.register(Handler.self, scope: .scoped) { r in
                if requestFirst {
                    _ = try r.resolve(RequestContext.self)
                    _ = try r.resolve(PaymentService.self)
                } else {
                    _ = try r.resolve(PaymentService.self)
                    _ = try r.resolve(RequestContext.self)
                }
                return Handler(transaction: Transaction(request: 0))
            }
        case .async(let injector):
            await injector.declareScoped(RequestContext.self).inTests { _ in RequestContext(id: 0) }
            await injector.register(Handler.self, scope: .scoped) { r in
                if requestFirst {
                    _ = try await r.resolve(RequestContext.self)
                    _ = try await r.resolve(PaymentService.self)
                } else {
                    _ = try await r.resolve(PaymentService.self)
                    _ = try await r.resolve(RequestContext.self)
                }
                return Handler(transaction: Transaction(request: 0))
            }
        }
        return app
    }

    /// `verify()` has no scope's request to give a factory that asks for one; with the
    /// declaration's stand-in it gives that, and sees what the factory asks for after it.
    /// Regression: a missing service asked for after the declared value passed `verify()`.
    @Test(arguments: Face.allCases, [true, false])
    func verifyReportsWhatAScopedFactoryAsksForAfterADeclaredValue(face: Face, requestFirst: Bool) async {
        let app = await appWithHandler(face, requestFirst: requestFirst)
        let module = "InjectorTests.ScopedLifetimeTests."
        let report = await app.verificationError()?.description
        #expect(
            report == """
                Injector found 1 problem in 2 registrations:

                1. Injector could not resolve \(module)PaymentService: nothing is registered for it.
                   Resolution path: \(module)Handler → \(module)PaymentService
                   To fix: register \(module)PaymentService before resolving it, \
                e.g. `injector.register(\(module)PaymentService.self) { r in … }`.
                """)
    }

    @Test(arguments: Face.allCases)
    func aSingletonBuiltByAnAncestorSaysWhyItCannotSeeTheScopesValue(face: Face) async throws {
        let app = face.makeInjector()
        await app.register(AuditLog.self, scope: .singleton, resolving: RequestContext.self) {
            AuditLog(transaction: Transaction(request: $0.id))
        }
        let request = app.openScope()
        await request.register(RequestContext(id: 4))
        let error = await request.resolveError(AuditLog.self)
        guard case .notRegistered(let key, _, let suggestions)? = error else {
            Issue.record("expected notRegistered, got \(String(describing: error))")
            return
        }
        #expect(key == DependencyKey(RequestContext.self))
        #expect(suggestions.first == .registeredBelowBuilder(DependencyKey(AuditLog.self)))
        #expect(error?.description.contains("built by an ancestor") == true)
    }

    /// A singleton of the app whose factory needs what a plain child registered: the message's
    /// fixes each work from that child. (Catches: it advised making the singleton `.scoped`,
    /// whose resolve from a plain child, which opens no scope, throws `outsideScope`.)
    @Test(arguments: Face.allCases)
    func aSingletonThatNeedsAPlainChildsValueIsFixedAsItsMessageSays(face: Face) async throws {
        let app = face.makeInjector()
        func registerAuditLog(scope: Scope?) async {
            await app.register(AuditLog.self, scope: scope, resolving: RequestContext.self) {
                AuditLog(transaction: Transaction(request: $0.id))
            }
        }
        await registerAuditLog(scope: .singleton)
        let child = app.child()
        await child.register(RequestContext(id: 4))
        let module = "InjectorTests.ScopedLifetimeTests."
        #expect(
            await child.resolveError(AuditLog.self)?.description == """
                Injector could not resolve \(module)RequestContext: nothing is registered for it.
                Resolution path: \(module)AuditLog → \(module)RequestContext
                Suggestion: It is registered in the injector the resolve started from, but \(module)AuditLog is a \
                singleton built by an ancestor with the ancestor's own registrations, which cannot see a child's. \
                Make \(module)AuditLog transient (`scope: .transient`): each resolve builds it with the registrations \
                of the injector it started from. Or make it `.scoped` (one per opened scope) and resolve it in a scope \
                opened with `openScope()` (a plain `child()` opens none) that registers \(module)RequestContext \
                (`declareScoped(\(module)RequestContext.self)` where \(module)AuditLog is registered declares that \
                each scope provides one). Or register \(module)RequestContext where \(module)AuditLog is registered.
                To fix: let \(module)AuditLog live no longer than what it needs (see the suggestion above).
                """)

        await registerAuditLog(scope: nil)
        #expect(try await child.resolve(AuditLog.self).transaction.request == 4)

        await registerAuditLog(scope: .scoped)
        #expect(await child.resolveError(AuditLog.self) != nil)  // `.scoped` alone: no scope is open
        let request = child.openScope()
        await request.register(RequestContext(id: 5))
        #expect(try await request.resolve(AuditLog.self).transaction.request == 5)
        try await request.close()
        await app.declareScoped(RequestContext.self)
        let declared = app.openScope()
        await declared.register(RequestContext(id: 6))
        #expect(try await declared.resolve(AuditLog.self).transaction.request == 6)
        try await declared.close()

        let singletons = face.makeInjector()
        await singletons.register(AuditLog.self, scope: .singleton, resolving: RequestContext.self) {
            AuditLog(transaction: Transaction(request: $0.id))
        }
        await singletons.register(RequestContext(id: 7))
        #expect(try await singletons.child().resolve(AuditLog.self).transaction.request == 7)
    }

    /// A scoped value whose factory needs what a child below the scope registered says why:
    /// the scope builds it, with its own registrations. (Catches: the message called it a
    /// singleton built by an ancestor, and advised making it `.scoped`, which it was.)
    @Test(arguments: Face.allCases)
    func aScopedValueBuiltByTheScopeSaysWhyItCannotSeeAChildsValue(face: Face) async throws {
        let app = face.makeInjector()
        await app.register(AuditLog.self, scope: .scoped, resolving: RequestContext.self) {
            AuditLog(transaction: Transaction(request: $0.id))
        }
        let child = app.openScope().child()
        await child.register(RequestContext(id: 4))
        let error = await child.resolveError(AuditLog.self)
        guard case .notRegistered(_, _, let suggestions)? = error else {
            Issue.record("expected notRegistered, got \(String(describing: error))")
            return
        }
        #expect(suggestions.first == .registeredBelowScope(DependencyKey(AuditLog.self)))
        #expect(error?.description.contains("built by the opened scope that keeps it") == true)
        #expect(error?.description.contains("in the opened scope itself (`request.register(…)`)") == true)
    }

    /// An opened scope reads the app's scoped registration from the app's published table,
    /// without the walk: one registered again while the scope is open is the one the scope
    /// builds from then on, and the value of the old one is torn down.
    @Test func aScopedRegistrationReplacedWhileAScopeIsOpenIsTheOneItBuildsNext() throws {
        let app = DependencyInjector()
        let closed = Collected<Int>()
        app.register(Transaction.self, scope: .scoped) { _ in Transaction(request: 1) }
            .teardown { closed.append($0.request) }
        let request = app.openScope()
        let first = try request.resolve(Transaction.self)
        #expect(try request.resolve(Transaction.self) === first)

        app.register(Transaction.self, scope: .scoped) { _ in Transaction(request: 2) }
            .teardown { closed.append($0.request) }
        let second = try request.resolve(Transaction.self)
        #expect(second.request == 2)
        #expect(try request.resolve(Transaction.self) === second)
        #expect(closed.values == [1])
        try request.close()
        #expect(closed.values == [1, 2])
        #expect(throws: InjectionError.self) { try app.resolve(Transaction.self) }  // outside any scope
    }

    /// Tasks that ask an opened scope of the actor face for a scoped value while one of them
    /// makes it await that one creation: one value, made once, for all of them.
    @Test(.timeLimit(.minutes(1)))
    func tasksAskingAScopeForAValueBeingMadeAwaitItsOneCreation() async throws {
        let server = AsyncDependencyInjector()
        let made = Collected<Int>()
        let released = Collected<Bool>()
        await server.register(Transaction.self, scope: .scoped) { _ in
            made.append(made.values.count + 1)
            while released.values.isEmpty { await Task.yield() }
            return Transaction(request: made.values.count)
        }
        let request = server.openScope()
        async let first = request.resolve(Transaction.self)
        while made.values.isEmpty { await Task.yield() }
        async let others = withThrowingTaskGroup(of: Transaction.self) { group in
            for _ in 0..<3 { group.addTask { try await request.child().resolve(Transaction.self) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        try await untilWaiting(3, for: Transaction.self, in: request)
        released.append(true)
        let (made1, waited) = try await (first, others)
        #expect(waited.count == 3 && waited.allSatisfy { $0 === made1 })
        #expect(made.values == [1])
        try await request.close()
    }

    final class Tagged: Sendable {
        let tag: String
        init(_ tag: String) { self.tag = tag }
    }

    /// A task that awaited a creation while its key was registered again gets the new
    /// registration's value, as a waiting thread does; the creator gets the value it made.
    /// For a scoped value in an opened scope and for a singleton, on the actor face.
    @Test(.timeLimit(.minutes(1)), arguments: [Scope.scoped, .singleton])
    func aTaskThatWaitedThroughAReRegistrationGetsTheNewRegistrationsValue(scope: Scope) async throws {
        let server = AsyncDependencyInjector()
        let started = AsyncGate()
        let release = AsyncGate()
        await server.register(Tagged.self, scope: scope) { _ in
            started.open()
            await release.wait()
            return Tagged("old")
        }
        let resolver = scope == .scoped ? server.openScope() : server
        async let first = resolver.resolve(Tagged.self)
        await started.wait()
        async let second = resolver.resolve(Tagged.self)
        try await untilWaiting(1, for: Tagged.self, in: resolver)
        await server.register(Tagged.self, scope: scope) { _ in Tagged("new") }
        release.open()
        let (old, new) = try await (first.tag, second.tag)
        #expect(old == "old")  // made for its resolve by the registration it found
        #expect(new == "new")
        #expect(try await resolver.resolve(Tagged.self).tag == "new")
    }

    /// A task awaiting a scoped value that another task makes, in that task, when that task is
    /// cancelled: the cancellation is the cancelled task's alone; the waiter makes the value
    /// itself, as a thread does when the creation it waited for failed.
    @Test(.timeLimit(.minutes(1)))
    func aTaskAwaitingAValueWhoseCreatorIsCancelledMakesItItself() async throws {
        let server = AsyncDependencyInjector()
        let started = AsyncGate()
        let release = AsyncGate()
        let made = Counter()
        await server.register(Tagged.self, scope: .scoped) { _ in
            let attempt = made.increment()
            if attempt == 1 {
                started.open()
                await release.wait()
                try Task.checkCancellation()
            }
            return Tagged("attempt \(attempt)")
        }
        let request = server.openScope()
        let creator = Task { try await request.resolve(Tagged.self) }
        await started.wait()
        async let waiter = request.resolve(Tagged.self)
        try await untilWaiting(1, for: Tagged.self, in: request)
        creator.cancel()
        release.open()
        #expect(isCancellation(await failure(of: creator), of: DependencyKey(Tagged.self)))
        #expect(try await waiter.tag == "attempt 2")
        #expect(made.value == 2)
        try await request.close()
    }

    /// The same, resolved the other way round, and with two children that each register their
    /// own: keeping one registration's value never lets go of another's that its holder still
    /// stores, whether the holder is above the scope or below it.
    @Test func overridesBelowAScopeKeepTheirValuesWhicheverIsResolvedFirst() throws {
        let app = DependencyInjector()
        let closed = Collected<Int>()
        app.register(Transaction.self, scope: .scoped) { _ in Transaction(request: 1) }
            .teardown { closed.append($0.request) }
        let request = app.openScope()
        let children = [request.child(), request.child()]
        for (number, child) in zip([2, 3], children) {
            child.register(Transaction.self, scope: .scoped) { _ in Transaction(request: number) }
                .teardown { closed.append($0.request) }
        }

        let first = try children[0].resolve(Transaction.self)
        let second = try children[1].resolve(Transaction.self)
        let apps = try request.resolve(Transaction.self)
        #expect([first.request, second.request, apps.request] == [2, 3, 1])
        #expect(try children[0].resolve(Transaction.self) === first)
        #expect(try children[1].resolve(Transaction.self) === second)
        #expect(closed.values.isEmpty)
        try request.close()
        #expect(closed.values == [1, 3, 2])
    }

    /// `overridesBelowAScopeKeepTheirValuesWhicheverIsResolvedFirst()` on the actor face, whose
    /// async factories claim the same places.
    @Test func overridesBelowAScopeOfTheActorFaceKeepTheirValuesWhicheverIsResolvedFirst() async throws {
        let server = AsyncDependencyInjector()
        let closed = Collected<Int>()
        await server.register(Transaction.self, scope: .scoped) { _ in Transaction(request: 1) }
            .teardown { closed.append($0.request) }
        let request = server.openScope()
        let child = request.child()
        await child.register(Transaction.self, scope: .scoped) { _ in Transaction(request: 2) }
            .teardown { closed.append($0.request) }

        let childs = try await child.resolve(Transaction.self)
        let apps = try await request.resolve(Transaction.self)
        #expect([childs.request, apps.request] == [2, 1])
        #expect(try await child.resolve(Transaction.self) === childs)
        #expect(closed.values.isEmpty)
        try await request.close()
        #expect(closed.values == [1, 2])
    }

    /// A scoped registration an opened scope holds itself: one value in the scope, however it
    /// is reached. Read from the published table, from a `.graph` value's factory and from an
    /// `initCompleted` hook (which take the walk), it was two values: the walk kept the scope's
    /// own in its registry, the table in the scope's store. Torn down once, at the close.
    @Test func aScopesOwnScopedRegistrationHasOneValueOnEveryPath() throws {
        let app = DependencyInjector()
        let request = app.openScope()
        let made = Collected<Int>()
        let closed = Collected<Int>()
        request.register(Transaction.self, scope: .scoped) { _ in
            made.append(1)
            return Transaction(request: 1)
        }.teardown { closed.append($0.request) }
        request.register(Handler.self, scope: .graph) { r in try Handler(transaction: r.resolve()) }
        let completed = Collected<Transaction>()
        request.register(AuditLog.self) { r in try AuditLog(transaction: r.resolve()) }
            .initCompleted { r, _ in completed.append(try r.resolve(Transaction.self)) }

        let transaction = try request.resolve(Transaction.self)
        #expect(try request.resolve(Handler.self).transaction === transaction)
        #expect(try request.resolve(AuditLog.self).transaction === transaction)
        #expect(completed.values.count == 1 && completed.values.allSatisfy { $0 === transaction })
        request.observe { _ in }  // resolves of an observed injector take the walk
        #expect(try request.resolve(Transaction.self) === transaction)
        #expect(made.values == [1])
        #expect(request.registrations.first { $0.key == DependencyKey(Transaction.self) }?.isCreated == true)
        try request.close()
        #expect(closed.values == [1])
    }

    /// `reset` of a scope's own scoped registration lets go of its value (in the scope's store
    /// of kept values, with the rest), as a decorator added for the key does.
    @Test func resetAndDecorateLetGoOfAScopesOwnScopedValue() throws {
        let request = DependencyInjector().openScope()
        let closed = Collected<Int>()
        let made = Collected<Int>()
        request.register(Transaction.self, scope: .scoped) { _ in
            made.append(made.values.count + 1)
            return Transaction(request: made.values.count)
        }.teardown { closed.append($0.request) }

        let first = try request.resolve(Transaction.self)
        try request.reset(Transaction.self)
        #expect(closed.values == [1])
        let second = try request.resolve(Transaction.self)
        #expect(second !== first)
        request.decorate(Transaction.self) { _, transaction in transaction }
        #expect(closed.values == [1, 2])
        #expect(try request.resolve(Transaction.self).request == 3)
        try request.close()
        #expect(closed.values == [1, 2, 3])
    }

    /// Registering a scope's own scoped key again, or unregistering it, lets go of its value
    /// then, as it does a singleton's.
    @Test func replacingAScopesOwnScopedRegistrationLetsGoOfItsValue() throws {
        let request = DependencyInjector().openScope()
        let closed = Collected<Int>()
        request.register(Transaction.self, scope: .scoped) { _ in Transaction(request: 1) }
            .teardown { closed.append($0.request) }
        _ = try request.resolve(Transaction.self)

        request.register(Transaction.self, scope: .scoped) { _ in Transaction(request: 2) }
            .teardown { closed.append($0.request) }
        #expect(closed.values == [1])
        #expect(try request.resolve(Transaction.self).request == 2)
        request.unregister(Transaction.self)
        #expect(closed.values == [1, 2])
        try request.close()
        #expect(closed.values == [1, 2])
    }

    /// The same on the actor face: a synchronous and an async factory's registrations, read
    /// from the table, then through the walk an observed scope takes.
    @Test func aScopesOwnScopedRegistrationHasOneValueOnEveryPathOfTheActorFace() async throws {
        let server = AsyncDependencyInjector()
        let request = server.openScope()
        let made = Collected<Int>()
        request.synchronous.register(Transaction.self, scope: .scoped) { _ in
            made.append(1)
            return Transaction(request: 1)
        }
        await request.register(Service.self, scope: .scoped) { _ in Service() }

        let transaction = try await request.resolve(Transaction.self)
        let service = try await request.resolve(Service.self)
        await request.observe { _ in }
        #expect(try await request.resolve(Transaction.self) === transaction)
        #expect(try await request.resolve(Service.self) === service)
        #expect(made.values == [1])
        try await request.close()
    }

    /// The app's scoped registration with an async factory, which a request's resolve finds in
    /// the app's published table, not by the walk: one value on every path (the table, a
    /// dependency's factory, the walk of an observed scope), a cycle through it reported with
    /// its path, its teardown run at the close, and nothing built once the scope is closed.
    @Test func anAppsAsyncScopedRegistrationFoundWithoutTheWalkKeepsEveryScopedRule() async throws {
        final class Loop: Sendable {}
        let server = AsyncDependencyInjector()
        let made = Collected<Int>()
        let closed = Collected<Int>()
        await server.register(Transaction.self, scope: .scoped) { _ in
            made.append(1)
            return Transaction(request: made.values.count)
        }.teardown { closed.append($0.request) }
        await server.register(Handler.self) { r in try await Handler(transaction: r.resolve()) }
        await server.register(Loop.self, scope: .scoped) { r in try await r.resolve(Loop.self) }
        let request = server.openScope()

        let transaction = try await request.resolve(Transaction.self)
        #expect(try await request.resolve(Handler.self).transaction === transaction)
        await request.observe { _ in }  // an observed scope's resolves take the walk
        #expect(try await request.resolve(Transaction.self) === transaction)
        #expect(made.values == [1])
        let cycle = await #expect(throws: InjectionError.self) { try await request.resolve(Loop.self) }
        guard case .circularDependency(let path)? = cycle else {
            Issue.record("expected circularDependency, got \(String(describing: cycle))")
            return
        }
        #expect(path == [DependencyKey(Loop.self), DependencyKey(Loop.self)])

        try await request.close()
        #expect(closed.values == [1])
        let closedScope = server.openScope()
        try await closedScope.close()
        let refusal = await #expect(throws: InjectionError.self) { try await closedScope.resolve(Transaction.self) }
        guard case .closed? = refusal else {
            Issue.record("expected closed, got \(String(describing: refusal))")
            return
        }
        #expect(made.values == [1])
    }

    /// A child below a scope whose own scoped registration's value the scope keeps: a decorator
    /// the child adds lets go of that value (torn down), so the next resolve is decorated, and
    /// registering the key again or unregistering it lets go of it then, as they do for the
    /// scope's own registration (the value stayed, undecorated, until the scope closed).
    @Test func aChildBelowAScopeLetsGoOfItsOwnScopedValueOnDecorateReplaceAndUnregister() throws {
        let request = DependencyInjector().openScope()
        let child = request.child()
        let closed = Collected<Int>()
        let made = Collected<Int>()
        let register = { (base: Int) in
            _ = child.register(Transaction.self, scope: .scoped) { _ in
                made.append(base + made.values.count + 1)
                return Transaction(request: made.values.last ?? 0)
            }.teardown { closed.append($0.request) }
        }
        register(0)
        #expect(try child.resolve(Transaction.self).request == 1)

        child.decorate(Transaction.self) { _, transaction in Transaction(request: transaction.request + 100) }
        #expect(closed.values == [1])
        #expect(try child.resolve(Transaction.self).request == 102)
        register(10)
        #expect(closed.values == [1, 102])
        #expect(try child.resolve(Transaction.self).request == 113)
        child.unregister(Transaction.self)
        #expect(closed.values == [1, 102, 113])
        try request.close()
        #expect(closed.values == [1, 102, 113])
    }

    /// The same on the actor face, whose asynchronous teardowns run in the scope's tasks, which its
    /// `close()` awaits.
    @Test func aChildBelowAScopeOfTheActorFaceLetsGoOfItsOwnScopedValueOnDecorateReplaceAndUnregister() async throws {
        let request = AsyncDependencyInjector().openScope()
        let child = request.child()
        let closed = Collected<Int>()
        let made = Collected<Int>()
        let register = { (base: Int) in
            _ = await child.register(Transaction.self, scope: .scoped) { _ in
                made.append(base + made.values.count + 1)
                return Transaction(request: made.values.last ?? 0)
            }.teardown { closed.append($0.request) }
        }
        await register(0)
        #expect(try await child.resolve(Transaction.self).request == 1)

        await child.decorate(Transaction.self) { _, transaction in Transaction(request: transaction.request + 100) }
        #expect(try await child.resolve(Transaction.self).request == 102)
        await register(10)
        #expect(try await child.resolve(Transaction.self).request == 113)
        await child.unregister(Transaction.self)
        try await request.close()
        #expect(closed.values.sorted() == [1, 102, 113])
    }

    /// A child below a scope that goes away while the scope keeps its override's value: the
    /// value is let go (and torn down) when the scope keeps the app's value of the key, since
    /// no injector stores its registration any more. The scope does not keep the child alive.
    @Test func theValueOfAChildThatWentAwayIsLetGoWhenTheScopeKeepsTheApps() throws {
        let app = DependencyInjector()
        let closed = Collected<Int>()
        app.register(Transaction.self, scope: .scoped) { _ in Transaction(request: 1) }
            .teardown { closed.append($0.request) }
        let request = app.openScope()
        weak var released: DependencyInjector?
        do {
            let child = request.child()
            released = child
            child.register(Transaction.self, scope: .scoped) { _ in Transaction(request: 2) }
                .teardown { closed.append($0.request) }
            #expect(try child.resolve(Transaction.self).request == 2)
        }
        #expect(released == nil)
        #expect(closed.values.isEmpty)

        #expect(try request.resolve(Transaction.self).request == 1)
        #expect(closed.values == [2])
        try request.close()
        #expect(closed.values == [2, 1])
    }

    /// A child of an opened scope that registers its own scoped value of a key: the scope keeps
    /// a value of each registration, the app's for resolves through the scope, the child's for
    /// resolves through the child, and neither replaces the other.
    @Test func anOverrideBelowAScopeAndTheAppsRegistrationEachKeepTheirValueInIt() throws {
        let app = DependencyInjector()
        let closed = Collected<Int>()
        app.register(Transaction.self, scope: .scoped) { _ in Transaction(request: 1) }
            .teardown { closed.append($0.request) }
        let request = app.openScope()
        let child = request.child()
        child.register(Transaction.self, scope: .scoped) { _ in Transaction(request: 2) }
            .teardown { closed.append($0.request) }

        let apps = try request.resolve(Transaction.self)
        let childs = try child.resolve(Transaction.self)
        #expect(apps.request == 1)
        #expect(childs.request == 2)
        #expect(try request.resolve(Transaction.self) === apps)
        #expect(try child.resolve(Transaction.self) === childs)
        #expect(closed.values.isEmpty)
        try request.close()
        #expect(closed.values == [2, 1])
    }
}
