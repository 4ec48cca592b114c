import Injector
import Testing

// Test scopes and what they make of the app's registrations (issue 26): test doubles
// (`inTests`), strict scopes and what they allow, on both faces.

protocol Payments: Sendable { var name: String { get } }
struct LivePayments: Payments { let name = "live" }
struct StubPayments: Payments { let name = "stub" }

extension FaceInjector {
    /// The face's `withOverrides(strict:allowing:…)`; `overrides` runs on the scope, first.
    func withOverrides<Result>(
        strict: Bool,
        allowing: [any Any.Type] = [],
        _ overrides: @escaping (FaceInjector) async -> Void = { _ in },
        operation: (FaceInjector) async throws -> Result
    ) async rethrows -> Result {
        switch base {
        case .sync(let injector):
            try await injector.withOverrides(strict: strict, allowing: allowing, { _ in }) {
                let scope = FaceInjector(.sync(DependencyInjector.current))
                await overrides(scope)
                return try await operation(scope)
            }
        case .async(let injector):
            try await injector.withOverrides(
                strict: strict, allowing: allowing, { await overrides(FaceInjector(.async($0))) }
            ) {
                try await operation(FaceInjector(.async(AsyncDependencyInjector.current)))
            }
        }
    }

    /// `resolveError` of a key that a strict scope refuses: the refusal is recorded on the
    /// running test too, which this expects (a known issue).
    func refusalError<T: Sendable>(_ type: T.Type) async -> InjectionError? {
        var error: InjectionError?
        await withKnownIssue { error = await resolveError(type) }
        return error
    }

    /// Registers a factory of `type`, for `scope`, with what test scopes make of it: a double
    /// (`inTests`), or allowed as it is.
    func register<T: Sendable>(
        _ type: T.Type,
        scope: Scope? = nil,
        live: @escaping @Sendable () -> T,
        inTests double: (@Sendable () -> T)? = nil,
        allowedInTests: Bool = false
    ) async {
        switch base {
        case .sync(let injector):
            let registered = injector.register(type, scope: scope) { _ in live() }
            if let double { registered.inTests { _ in double() } }
            if allowedInTests { registered.allowedInTests() }
        case .async(let injector):
            let registered = await injector.register(type, scope: scope) { _ in live() }
            if let double { registered.inTests { _ in double() } }
            if allowedInTests { registered.allowedInTests() }
        }
    }
}

@Suite struct StrictTestScopeTests {
    @Test(arguments: Face.allCases)
    func aNonStrictScopeResolvesTheAppsRegistrations(face: Face) async throws {
        let app = face.makeInjector()
        await app.register((any Payments).self, live: { LivePayments() })

        let name = try await app.withOverrides(strict: false) { try await $0.resolve((any Payments).self).name }

        #expect(name == "live")
    }

    @Test(arguments: Face.allCases)
    func aStrictScopeRefusesAnAppRegistrationTheTestDidNotProvide(face: Face) async throws {
        let app = face.makeInjector()
        let line = #line + 1
        await app.register((any Payments).self, live: { LivePayments() })

        let error = await app.withOverrides(strict: true) { await $0.refusalError((any Payments).self) }

        guard case .notProvidedInTest(let key, let path, let site)? = error else {
            Issue.record("expected notProvidedInTest, got \(String(describing: error))")
            return
        }
        #expect(key == DependencyKey((any Payments).self))
        #expect(path == [key])
        // Registered by the face helper above, whose `register` call is what is recorded.
        #expect(site.fileID == "InjectorTests/StrictTestScopeTests.swift")
        #expect(site.line < line)
        #expect(
            error?.description == """
                Injector refused to resolve any InjectorTests.Payments in a strict test scope: the test did not \
                provide it, and the app's registration (\(site)) is not allowed in tests.
                To fix: register a stand-in for it in the test (`$0.register(… as any InjectorTests.Payments)` in its \
                `.injecting` closure; `$0.mainActor.register((any InjectorTests.Payments).self) { _ in … }` where \
                the stand-in is main-actor code, as in a target whose default isolation is the main actor), \
                give the registration one for every test (`.inTests { r in … }`), or allow \
                the real one in tests (`.allowedInTests()` on the registration, or \
                `allowing: [(any InjectorTests.Payments).self]` on the test scope).
                """)
    }

    /// What each opened scope provides (`declareScoped`), a strict test scope provides too:
    /// it does not refuse the declaration (which suggested allowing it in tests, which only led
    /// to `notProvidedByScope`), it says that the test's scope did not provide one, and uses
    /// the one the test registers.
    @Test(arguments: Face.allCases)
    func aStrictScopeSaysTheTestProvidesADeclaredScopedValue(face: Face) async throws {
        struct RequestID: Sendable { let value: Int }
        let app = face.makeInjector()
        await app.declareScoped(RequestID.self)

        let error = await app.withOverrides(strict: true) { await $0.resolveError(RequestID.self) }
        let provided = try await app.withOverrides(strict: true) { scope in
            await scope.register(RequestID(value: 7))
        } operation: {
            try await $0.resolve(RequestID.self).value
        }

        guard case .notProvidedByScope(let key, _, _)? = error else {
            Issue.record("expected notProvidedByScope, got \(String(describing: error))")
            return
        }
        #expect(key == DependencyKey(RequestID.self))
        #expect(error?.description.contains("in a test, in the test's scope") == true)
        #expect(provided == 7)
    }

    @Test func theRefusalNamesTheRegistrationsLineAndThePath() throws {
        let app = DependencyInjector()
        let line = #line + 1
        app.register(StubPayments() as any Payments)
        app.register(String.self) { r in try r.resolve((any Payments).self).name }

        var error: InjectionError?
        withKnownIssue {  // the refusal is recorded on the running test too
            error = app.withOverrides(strict: true, allowing: [String.self], { _ in }) { () -> InjectionError? in
                do throws(InjectionError) {
                    _ = try DependencyInjector.current.resolve(String.self)
                    return nil
                } catch {
                    return error
                }
            }
        }

        guard case .notProvidedInTest(_, let path, let site)? = error else {
            Issue.record("expected notProvidedInTest, got \(String(describing: error))")
            return
        }
        #expect(path == [DependencyKey(String.self), DependencyKey((any Payments).self)])
        #expect("\(site)" == "InjectorTests/StrictTestScopeTests.swift:\(line)")
    }

    @Test(arguments: Face.allCases)
    func whatTheTestRegistersAndWhatIsAllowedIsUsed(face: Face) async throws {
        let app = face.makeInjector()
        await app.register((any Payments).self, live: { LivePayments() })
        await app.register(String.self, live: { "allowed on the registration" }, allowedInTests: true)
        await app.register(Int.self, live: { 42 })

        let (payments, text, number) = try await app.withOverrides(strict: true, allowing: [Int.self]) { scope in
            await scope.register(StubPayments() as any Payments)
        } operation: { scope in
            try await (scope.resolve((any Payments).self).name, scope.resolve(String.self), scope.resolve(Int.self))
        }

        #expect(payments == "stub")
        #expect(text == "allowed on the registration")
        #expect(number == 42)
    }

    @Test(arguments: Face.allCases)
    func aTestDoubleStandsInForTheAppsRegistrationInEveryTestScope(face: Face) async throws {
        let app = face.makeInjector()
        let liveRuns = Counter()
        let doubleRuns = Counter()
        await app.register(
            (any Payments).self, scope: .singleton,
            live: {
                _ = liveRuns.increment()
                return LivePayments()
            },
            inTests: {
                _ = doubleRuns.increment()
                return StubPayments()
            })

        let strict = try await app.withOverrides(strict: true) { scope in
            try await [scope.resolve((any Payments).self).name, scope.resolve((any Payments).self).name]
        }
        let lenient = try await app.withOverrides(strict: false) { try await $0.resolve((any Payments).self).name }
        let live = try await app.resolve((any Payments).self).name

        #expect(strict == ["stub", "stub"])
        #expect(lenient == "stub")
        #expect(doubleRuns.value == 2)  // once per scope: a singleton double is the scope's own
        #expect(live == "live")
        #expect(liveRuns.value == 1)  // only the app's own resolve
    }

    @Test(arguments: Face.allCases)
    func aScopeNestedInAStrictScopeSeesTheStrictScopesRegistrations(face: Face) async throws {
        let app = face.makeInjector()
        await app.register(Int.self, live: { 1 })

        let (text, error) = await app.withOverrides(strict: true) { suite in
            await suite.register("the suite's")
        } operation: { suite in
            await suite.withOverrides(strict: false) { test in
                (try? await test.resolve(String.self), await test.refusalError(Int.self))
            }
        }

        #expect(text == "the suite's")

        guard case .notProvidedInTest? = error else {
            Issue.record("expected notProvidedInTest, got \(String(describing: error))")
            return
        }
    }

    /// A strict scope nested in another test scope uses what the outer one registered: the
    /// outer scope's stand-ins are the test's own.
    @Test(arguments: Face.allCases)
    func aStrictScopeNestedInATestScopeUsesTheOuterScopesStandIns(face: Face) async throws {
        let app = face.makeInjector()
        await app.register((any Payments).self, live: { LivePayments() })
        await app.register(Int.self, live: { 1 })

        let (name, error) = await app.withOverrides(strict: false) { suite in
            await suite.register(StubPayments() as any Payments)
        } operation: { suite in
            await suite.withOverrides(strict: true) { test in
                (try? await test.resolve((any Payments).self).name, await test.refusalError(Int.self))
            }
        }

        #expect(name == "stub")
        guard case .notProvidedInTest? = error else {
            Issue.record("expected notProvidedInTest, got \(String(describing: error))")
            return
        }
    }

    /// A key that `implements` forwards resolves its target, which strict mode screens: an
    /// allowed target answers every key it implements.
    @Test func aForwardedKeyOfAnAllowedRegistrationResolvesInAStrictScope() throws {
        let app = DependencyInjector()
        app.register(LivePayments.self) { _ in LivePayments() }.allowedInTests().implements((any Payments).self)
        app.register(StubPayments.self) { _ in StubPayments() }.implements(Payments?.self)

        let (name, error) = app.withOverrides(strict: true, { _ in }) {
            () -> (String?, InjectionError?) in
            let name = try? DependencyInjector.current.resolve((any Payments).self).name
            var refusal: InjectionError?
            withKnownIssue {  // the refusal is recorded on the running test too
                do throws(InjectionError) {
                    _ = try DependencyInjector.current.resolve(Payments?.self)
                } catch {
                    refusal = error
                }
            }
            return (name, refusal)
        }

        #expect(name == "live")
        guard case .notProvidedInTest(let key, _, _)? = error else {
            Issue.record("expected notProvidedInTest, got \(String(describing: error))")
            return
        }
        #expect(key == DependencyKey(StubPayments.self))  // the target, not the forwarded key
    }

    @MainActor
    @Test func aMainActorDoubleIsBuiltOnTheMainActor() throws {
        let app = DependencyInjector()
        app.mainActor.register(MainActorCounter.self) { _ in MainActorCounter(start: 0) }
            .inTests(mainActor: { _ in MainActorCounter(start: 100) })

        let start = try app.withOverrides(strict: true, { _ in }) {
            try DependencyInjector.current.resolve(MainActorCounter.self).start
        }

        #expect(start == 100)
    }
}

@MainActor
final class MainActorCounter {
    let start: Int
    init(start: Int) { self.start = start }
}
