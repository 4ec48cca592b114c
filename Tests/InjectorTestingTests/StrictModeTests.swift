import Injector
import InjectorTesting
import TestSupport
import Testing

#if canImport(XCTest)
    import XCTest
#endif

protocol Receipts: Sendable { var kind: String { get } }
struct LiveReceipts: Receipts { let kind = "live" }
struct FakeReceipts: Receipts { let kind = "fake" }
protocol Ledger: Sendable {}
struct LiveLedger: Ledger {}

/// The line of `registerShop`'s registration of `Receipts`.
let receiptsRegistrationLine = #line + 4

/// The app's registrations, as an app's start-up code makes them.
@Sendable func registerShop(in injector: DependencyInjector) {
    injector.register(LiveReceipts() as any Receipts)
    injector.register(MockPayments(id: 0) as any PaymentService)
    injector.register((any Ledger).self) { _ in LiveLedger() }.inTests { _ in LiveLedger() }
}

/// A suite turns strict mode on in one line: the app's services above, its stand-ins in it.
@Suite(.injecting(.strict(app: registerShop)) { $0.register(MockPayments(id: 7) as any PaymentService) })
struct StrictModeTests {
    @Test func whatTheSuiteProvidesIsUsed() {
        #expect(Checkout().pay() == "mock 7 charged 100")
    }

    @Test(.injecting { $0.register(FakeReceipts() as any Receipts) })
    func whatATestProvidesIsUsed() throws {
        #expect(try DependencyInjector.current.resolve((any Receipts).self).kind == "fake")
    }

    @Test func aRegistrationWithATestDoubleNeedsNothingMore() throws {
        #expect(try DependencyInjector.current.resolve((any Ledger).self) is LiveLedger)
    }

    /// A forgotten mock fails the test that used it: the resolve throws, and an issue naming
    /// the type and where the app registered it is recorded even when the error is swallowed.
    @Test func aForgottenMockFailsTheTestWithAnIssue() {
        let issues = recordedIssues { _ = try? DependencyInjector.current.resolve((any Receipts).self) }

        #expect(issues.count == 1)
        let message = issues.first?.comments.first ?? ""
        #expect(message.hasPrefix("Injector refused to resolve any InjectorTestingTests.Receipts"))
        #expect(
            message.contains(
                "the app's registration (InjectorTestingTests/StrictModeTests.swift:\(receiptsRegistrationLine))"))
        #expect(issues.first?.fileID == "InjectorTestingTests/StrictModeTests.swift")
        #expect(issues.first?.line == receiptsRegistrationLine)  // where the app registered it
    }

    /// A `@LazyInject` of a refused key, in an object made by hand.
    final class LazyReceipts {
        @LazyInject var receipts: any Receipts
    }

    /// Regression: the refusal was recorded twice, at the app's registration and at the property.
    @Test func aRefusedLazyInjectOfAHandMadeObjectIsRecordedOnceAtTheProperty() {
        let line = #line - 5  // the property's
        let owner = LazyReceipts()
        let issues = recordedIssues { _ = owner.$receipts }
        #expect(issues.count == 1)
        #expect(issues.first?.line == line)
    }

    /// A refused `@LazyInject` read again is recorded once. (Catches: each read recorded it.)
    @Test func aRefusedLazyInjectReadTwiceIsRecordedOnce() {
        let owner = LazyReceipts()
        let issues = recordedIssues {
            _ = owner.$receipts
            _ = owner.$receipts
        }
        #expect(issues.count == 1)
    }

    /// An `@Inject` of a refused key, in an object made by hand.
    final class InjectedReceipts {
        @Inject var receipts: any Receipts
    }

    /// A refusal is recorded once per test, whoever met it first: a hand-made object's
    /// `@Inject`, then a resolve of the key, or the other way round. (Catches: the wrapper's
    /// record did not count as the key's, and the resolve recorded it again, and conversely.)
    @Test(arguments: [true, false])
    func aRefusalMetByAWrapperAndAResolveIsRecordedOnce(wrapperFirst: Bool) {
        let issues = recordedIssues {
            if wrapperFirst { _ = InjectedReceipts().$receipts }
            _ = try? DependencyInjector.current.resolve((any Receipts).self)
            if !wrapperFirst { _ = InjectedReceipts().$receipts }
        }
        #expect(issues.count == 1)
    }

    final class ReceiptsScreen: Sendable {
        let receipts = Injected<any Receipts>()
    }

    /// The issues recorded while `body` runs, which swallows what it meets.
    private func issuesRecorded(_ body: () async -> Void) async -> [Issue] {
        let issues = Collected<Issue>()
        await withKnownIssue {
            await body()
        } matching: { issue in
            issues.append(issue)
            return true
        }
        return issues.values
    }

    /// A refusal that the code swallows is recorded once, at the app's registration, whichever
    /// builder met it. Regression: none of these three was recorded.
    @Test func aRefusalSwallowedInsideAnAsyncMakeIsRecorded() async {
        let issues = await issuesRecorded {
            _ = try? await DependencyInjector.current.make { () async in ReceiptsScreen() }
        }
        #expect(issues.map { $0.sourceLocation?.line } == [receiptsRegistrationLine])
    }

    @Test func aRefusedLazyInjectSwallowedFromMakeIsRecorded() async {
        let issues = await issuesRecorded { _ = try? DependencyInjector.current.make { LazyReceipts() } }
        #expect(issues.map { $0.sourceLocation?.line } == [receiptsRegistrationLine])
    }

    @Test(.injecting(async: { await $0.register(ReceiptsScreen.self) { _ in ReceiptsScreen() } }))
    func aRefusalSwallowedInsideAnActorFaceFactoryIsRecorded() async {
        let issues = await issuesRecorded {
            _ = try? await AsyncDependencyInjector.current.resolve(ReceiptsScreen.self)
        }
        #expect(issues.map { $0.sourceLocation?.line } == [receiptsRegistrationLine])
    }

    @Test(.injecting(.strict(allowing: [(any Receipts).self])))
    func aTestCanAllowTheRealOne() throws {
        #expect(try DependencyInjector.current.resolve((any Receipts).self).kind == "live")
    }
}

/// The app's async registrations.
@Sendable func registerMailing(in injector: AsyncDependencyInjector) async {
    await injector.register(MockMailer(id: 0) as any Mailer)
}

/// Strict mode on the actor face, through the same trait.
@Suite(.injecting(.strict(asyncApp: registerMailing)))
struct AsyncStrictModeTests {
    @Test func aForgottenAsyncMockFailsTheTest() async {
        await withKnownIssue {
            _ = try await signUp()
        }
    }

    @Test(.injecting(async: { await $0.register(MockMailer(id: 3) as any Mailer) }))
    func aProvidedAsyncMockIsUsed() async throws {
        #expect(try await signUp() == "mock 3 sent")
    }
}

#if canImport(XCTest)
    /// Strict mode in an `InjectorTestCase`: the app's services in `registerApp`, the test's
    /// stand-ins in `registerDependencies`. The refusals are caught here to be checked.
    final class StrictTestCaseTests: FailureCatchingTestCase {
        override var isStrict: Bool { true }
        override var marker: String { "Injector refused" }
        override func registerApp(in injector: DependencyInjector) { registerShop(in: injector) }
        override func registerDependencies(in injector: DependencyInjector) {
            injector.register(FakeReceipts() as any Receipts)
        }

        func testWhatTheTestProvidesIsUsed() throws {
            XCTAssertEqual(try injector.resolve((any Receipts).self).kind, "fake")
            XCTAssertTrue(caught.isEmpty)
        }

        func testAForgottenMockFailsTheTest() {
            XCTAssertThrowsError(try injector.resolve((any PaymentService).self))
            XCTAssertEqual(caught.count, 1)
            XCTAssertTrue(caught.first?.description.contains("any InjectorTestingTests.PaymentService") == true)
        }
    }
#endif

/// `.injecting(.strict) { … }`: the trailing closure is the test's own stand-ins, and the app's
/// registrations are `current`'s.
@Suite(.injecting { registerShop(in: $0) })
struct StrictOverCurrentTests {
    @Test(.injecting(.strict) { $0.register(FakeReceipts() as any Receipts) })
    func theTrailingClosureIsTheTestsOwn() throws {
        #expect(try DependencyInjector.current.resolve((any Receipts).self).kind == "fake")
    }
}

/// Regression: a strict scope's refusal of a key path was recorded twice, as the refusal and as
/// the fall-back to the default.
@Suite struct StrictKeyPathTests {
    /// A refused key path is told how to provide a key path: its key (`RefusableKey`) is an
    /// `InjectionKey`, which no value is registered "as" (StrictTestScopes.md: the issue names
    /// "the fix"; InjectionKey's doc: tests override it through the injector,
    /// `$0.values.x = …`, or `register(\.x)`).
    @Test(.injecting(.strict(app: { $0.register(\.refusable) { _ in "app" } })))
    func aRefusedKeyPathSaysHowToProvideTheKeyPath() {
        let issues = recordedIssues { _ = DependencyInjector.current.resolve(\.refusable) }
        let message = issues.first?.comments.first ?? ""
        #expect(issues.count == 1)
        #expect(message.hasPrefix("Injector refused to resolve"))
        // Not the advice for a type's stand-in, which cannot be followed for a key.
        #expect(!message.contains("as InjectorTestingTests.RefusableKey"))
        #expect(!message.contains("mainActor.register(InjectorTestingTests.RefusableKey"))
        // The advice for a key path: register the property that reads the key.
        #expect(message.contains("register(\\."))
    }

    @Test(.injecting(.strict(app: { $0.register(\.refusable) { _ in "app" } })))
    func aRefusedKeyPathIsRecordedOnceOnTheSyncFace() {
        var value = ""
        let issues = recordedIssues { value = DependencyInjector.current.resolve(\.refusable) }
        #expect(value == "default")
        #expect(issues.count == 1)
    }

    @Test(.injecting(.strict(asyncApp: { await $0.register(\.refusable) { _ in "app" } })))
    func aRefusedKeyPathIsRecordedOnceOnTheActorFace() async {
        let issues = Collected<Issue>()
        var value = ""
        await withKnownIssue {
            value = await AsyncDependencyInjector.current.resolve(\.refusable)
        } matching: { issue in
            issues.append(issue)
            return true
        }
        #expect(value == "default")
        #expect(issues.values.count == 1)
    }
}

private enum RefusableKey: InjectionKey {
    static var defaultValue: String { "default" }
}

extension InjectedValues {
    fileprivate var refusable: String {
        get { self[RefusableKey.self] }
        set { self[RefusableKey.self] = newValue }
    }
}

private enum FailingKey: InjectionKey {
    static var defaultValue: String { "default" }
}

extension InjectedValues {
    fileprivate var failing: String {
        get { self[FailingKey.self] }
        set { self[FailingKey.self] = newValue }
    }
}

/// What can only fall back, or only be reported, in a test scope still reaches the test.
@Suite(.injecting())
struct FallbackReportingTests {
    /// A key path's factory that fails yields the default, and the test hears of it.
    @Test func aFailingKeyPathFactoryIsRecordedOnTheTestAtTheRead() {
        DependencyInjector.current.register(\.failing) { _ in throw SampleFailure() }
        var value = ""
        let readLine = #line + 1
        let issues = recordedIssues { value = DependencyInjector.current.resolve(\.failing) }

        #expect(value == "default")
        #expect(issues.count == 1)
        #expect(issues.first?.comments.first?.hasPrefix("Injector could not resolve") == true)
        #expect(issues.first?.fileID == "InjectorTestingTests/StrictModeTests.swift")
        #expect(issues.first?.line == readLine)
    }

    /// A read through `values`, which cannot know its caller's line: at the registration's.
    @Test func aFailingKeyPathReadThroughValuesIsRecordedAtTheRegistration() {
        let registrationLine = #line + 1
        DependencyInjector.current.register(\.failing) { _ in throw SampleFailure() }
        var value = ""
        let issues = recordedIssues { value = DependencyInjector.current.values.failing }

        #expect(value == "default")
        #expect(issues.count == 1)
        #expect(issues.first?.line == registrationLine)
    }

    /// A task an async `make` started, that outlives it because the body threw, reports a
    /// failed wrapper to the test: the builder no longer captures it.
    @Test func aTaskThatOutlivesAFailedAsyncMakeReportsItsFailures() async {
        let (gate, open) = AsyncStream.makeStream(of: Void.self)
        let late = Collected<Task<Void, Never>>()
        await withKnownIssue {
            _ = try? await DependencyInjector.current.make { () async throws -> Int in
                late.append(
                    Task {
                        for await _ in gate { break }
                        _ = Receipt()  // its printer is not registered
                    })
                throw SampleFailure()
            }
            open.yield()  // only once `make` has thrown
            for task in late.values { await task.value }
        }
    }
}

private struct SampleFailure: Error {}

/// An object made by hand whose `@Inject` asks for what a strict scope refuses.
final class HandMadeCheckout {
    static let receiptsLine = #line + 1
    @Inject var receipts: any Receipts
}

/// The same with `@OptionalInject`, which reads as `nil` and records the refusal.
final class HandMadeOptionalCheckout {
    static let receiptsLine = #line + 1
    @OptionalInject var receipts: (any Receipts)?
}

/// Every refusal recorded on the running test, once, where the user looks (issue 39).
@Suite struct RefusalRecordingTests {
    /// In a plain `@Test`, with no trait: `withOverrides(strict:)` records its refusal too.
    @Test func aStrictRefusalInsideWithOverridesInAPlainTestIsRecorded() {
        let app = DependencyInjector()
        registerShop(in: app)

        let issues = recordedIssues {
            app.withOverrides(strict: true, { _ in }) {
                _ = try? DependencyInjector.current.resolve((any Receipts).self)
            }
        }

        #expect(issues.count == 1)
        #expect(
            issues.first?.comments.first?.hasPrefix("Injector refused to resolve any InjectorTestingTests.Receipts")
                == true)
        #expect(issues.first?.line == receiptsRegistrationLine)
    }

    /// In a strict trait, a refused `@Inject` of an object made by hand is recorded once, at
    /// the property's declaration, naming its owner.
    @Test(.injecting(.strict(app: registerShop)))
    func aRefusedInjectOfAHandMadeObjectIsRecordedAtTheProperty() {
        let issues = recordedIssues { _ = HandMadeCheckout() }

        #expect(issues.count == 1)
        let message = issues.first?.comments.first ?? ""
        #expect(
            message.hasPrefix(
                "@Inject property declared at InjectorTestingTests/StrictModeTests.swift:\(HandMadeCheckout.receiptsLine) (in HandMadeCheckout) could not be resolved."
            ))
        #expect(message.contains("Injector refused to resolve any InjectorTestingTests.Receipts"))
        #expect(issues.first?.fileID == "InjectorTestingTests/StrictModeTests.swift")
        #expect(issues.first?.line == HandMadeCheckout.receiptsLine)
    }

    @Test(.injecting(.strict(app: registerShop)))
    func aRefusedOptionalInjectOfAHandMadeObjectIsRecordedOnceAtTheProperty() {
        var checkout: HandMadeOptionalCheckout?
        let issues = recordedIssues { checkout = HandMadeOptionalCheckout() }

        #expect(checkout?.receipts == nil)
        #expect(issues.count == 1)
        #expect(issues.first?.comments.first?.hasPrefix("@OptionalInject property declared at") == true)
        #expect(issues.first?.line == HandMadeOptionalCheckout.receiptsLine)
    }

    /// Regression: in a plain `@Test`, where no recorder is bound, a strict scope's refusal of
    /// a hand-made object's `@OptionalInject` or `@LazyInject` was recorded nowhere. (One
    /// scope each: a scope records a key's refusal once.)
    @Test func aRefusedWrapperOfAHandMadeObjectInAPlainTestIsRecordedAtTheProperty() {
        let app = DependencyInjector()
        registerShop(in: app)
        let issues = recordedIssues {
            app.withOverrides(strict: true, { _ in }) { _ = HandMadeOptionalCheckout() }
            app.withOverrides(strict: true, { _ in }) { _ = StrictModeTests.LazyReceipts().$receipts }
        }
        #expect(issues.count == 2)
        #expect(issues.first?.line == HandMadeOptionalCheckout.receiptsLine)
    }

    /// A teardown that throws when a plain injector replaces its value, in a plain `@Test`:
    /// recorded on the test, at the registration's line.
    @Test func aTeardownFailureOutsideTheTraitIsRecordedAtTheRegistration() {
        struct TeardownFailed: Error {}
        let injector = DependencyInjector()
        let line = #line + 1
        injector.register(Int.self, scope: .singleton) { _ in 1 }.teardown { _ in throw TeardownFailed() }
        _ = try? injector.resolve(Int.self)

        let issues = recordedIssues { injector.unregister(Int.self) }

        #expect(issues.count == 1)
        #expect(issues.first?.comments.first?.hasPrefix("Injector ran every teardown, and 1 teardown threw:") == true)
        #expect(issues.first?.fileID == "InjectorTestingTests/StrictModeTests.swift")
        #expect(issues.first?.line == line)
    }

    /// Regression: the failing asynchronous teardown of a value a test scope let go was recorded
    /// when it ran, and again by the scope's close, which had awaited it.
    @Test(arguments: [false, true])
    func aReplacedValuesFailingAsyncTeardownInATestScopeIsRecordedOnce(resolvesAgain: Bool) async {
        struct TeardownFailed: Error {}
        let issues = Collected<Issue>()
        await withKnownIssue {
            try? await AsyncDependencyInjector().withOverrides({ _ in }) {
                let scope = AsyncDependencyInjector.current
                await scope.register(Int.self, scope: .singleton) { _ in 1 }
                    .teardown { _ in
                        await Task.yield()
                        throw TeardownFailed()
                    }
                _ = try await scope.resolve(Int.self)
                await scope.register(Int.self, scope: .singleton) { _ in 2 }  // lets go of 1
                if resolvesAgain { _ = try await scope.resolve(Int.self) }
            }
        } matching: { issue in
            issues.append(issue)
            return true
        }
        #expect(issues.values.count == 1)
    }
}

#if canImport(XCTest)
    /// An XCTest method that binds no recorder (as a plain `XCTestCase` does not):
    /// `withOverrides(strict:)` still records its refusal on the running test case (issue 39).
    /// The refusal is caught here to be checked.
    final class PlainXCTestCaseRefusalTests: FailureCatchingTestCase {
        override var marker: String { "Injector refused" }

        func testAStrictRefusalInsideWithOverridesIsRecordedOnTheTestCase() {
            let app = DependencyInjector()
            registerShop(in: app)

            TestIssueRecorder.$current.withValue(nil) {  // what a plain XCTestCase has
                app.withOverrides(strict: true, { _ in }) {
                    _ = try? DependencyInjector.current.resolve((any Receipts).self)  // swallowed
                }
            }

            XCTAssertEqual(caught.count, 1)
            XCTAssertTrue(caught.first?.description.contains("any InjectorTestingTests.Receipts") == true)
            XCTAssertEqual(caught.first?.line, receiptsRegistrationLine)
        }
    }
#endif

/// A strict `withOverrides` in a plain test, which binds no recorder of its own.
@Suite struct PlainTestStrictScopeTests {
    /// A refusal met twice inside one strict scope is recorded once, as under the trait.
    /// (Catches: with no recorder bound, each refusal made one of its own, which remembered
    /// nothing, and was recorded each time.)
    @Test func aRefusalMetTwiceInAStrictWithOverridesIsRecordedOnce() async {
        let app = DependencyInjector()
        registerShop(in: app)
        let issues = Collected<Issue>()
        await withKnownIssue {
            app.withOverrides(strict: true, { _ in }) {
                _ = try? DependencyInjector.current.resolve((any Receipts).self)
                _ = try? DependencyInjector.current.resolve((any Receipts).self)
            }
            await app.withOverrides(strict: true, { _ in }) { () async in
                _ = try? DependencyInjector.current.resolve((any Receipts).self)
                _ = try? DependencyInjector.current.resolve((any Receipts).self)
            }
            let actor = AsyncDependencyInjector()
            await actor.register(LiveReceipts() as any Receipts)
            await actor.withOverrides(strict: true, { _ in }) {
                _ = try? await AsyncDependencyInjector.current.resolve((any Receipts).self)
                _ = try? await AsyncDependencyInjector.current.resolve((any Receipts).self)
            }
        } matching: { issue in
            issues.append(issue)
            return true
        }
        #expect(issues.values.count == 3)  // one per scope
    }
}

/// Work a test hands to a detached task, with the test's injector handed over as the docs say
/// (TestingInParallel.md: "Task.detached … do not inherit task-local values … pass the injector
/// explicitly"), is the test's: a refusal that it swallows fails the test (StrictTestScopes.md:
/// "Each refusal is recorded on the test once … whether the test throws it or the code
/// swallows it"). The trait is run by hand, so that a refusal recorded when its scope ends is
/// caught here too.
@Suite struct DetachedWorkRefusalTests {
    @Test
    func aRefusalSwallowedInADetachedTaskFailsTheTest() async throws {
        let trait: InjectingTrait = .injecting(.strict(app: registerShop))
        let test = try #require(Test.current)
        let issues = Collected<Issue>()
        try await withKnownIssue {
            try await trait.provideScope(for: test, testCase: Test.Case.current) {
                await resolveReceiptsSwallowingTheRefusalInADetachedTask()
            }
        } matching: { issue in
            issues.append(issue)
            return true
        }
        #expect(issues.values.count == 1)
    }
}

/// `withOverrides(strict:)` in a plain test (no trait): a refusal swallowed in a detached task
/// that got the scope's injector fails the test, as under the trait.
@Suite struct DetachedWorkInPlainScopeTests {
    @Test func aRefusalSwallowedInADetachedTaskFailsTheTest() async {
        let app = DependencyInjector()
        registerShop(in: app)
        let issues = Collected<Issue>()
        await withKnownIssue {
            await app.withOverrides(strict: true, { _ in }) {
                await resolveReceiptsSwallowingTheRefusalInADetachedTask()
            }
        } matching: { issue in
            issues.append(issue)
            return true
        }
        #expect(issues.values.count == 1)
    }
}

/// Resolves the app's `Receipts`, which a strict scope refuses, through the current injector
/// handed to a detached task (as the docs say to), and swallows the refusal.
private func resolveReceiptsSwallowingTheRefusalInADetachedTask() async {
    let injector = DependencyInjector.current
    let receipts = await Task.detached { try? injector.resolve((any Receipts).self) }.value
    #expect(receipts == nil)  // refused, and swallowed
}
