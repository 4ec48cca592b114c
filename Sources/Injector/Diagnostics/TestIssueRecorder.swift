/// Where a test scope hears, at once, of what fails in it without a throw that reaches the
/// test: a wrapped property whose resolution failed (recorded on the test that created it, even
/// when a later read stops the process), a strict scope's refusal (even when the code swallows
/// the error), a key path that fell back to its default. `InjectorTesting` binds one for each
/// test (the trait and the XCTest class); the library reads it only on failure.
@usableFromInline
package struct TestIssueRecorder: Sendable {
    /// The recorder of the test running in this task, if any.
    @TaskLocal package static var current: TestIssueRecorder?

    private let recordNow: @Sendable (_ message: String, _ site: DeclarationSite?) -> Void
    /// The keys whose refusal this recorder has recorded, when it remembers them (one test's
    /// recorder, see `init(rememberingRefusals:_:)`); guarded by its lock.
    private let recordedRefusals: Locked<Set<DependencyKey>>?
    /// Whether this task can record on the recorder's test, for a recorder that cannot record
    /// from any task (Swift Testing's, which finds the test through the task's `Test.current`):
    /// what it is handed elsewhere (a `Task.detached` the test awaits) is held for the test's
    /// own task (see `recordHeld()`). `nil` for one that records from any task.
    private let canRecordHere: (@Sendable () -> Bool)?
    /// What was handed to the recorder where it could not record, until `recordHeld()`.
    private let held: Locked<HeldIssues>?

    /// A recorder that hands each failure's message, and where the property is declared (or
    /// the failing registration made; `nil` when unknown), to `record`.
    ///
    /// With `rememberingRefusals` (one recorder per test), it records each strict-scope
    /// refusal once, and knows the refusals it recorded (`hasRecorded(_:)`), so that a test
    /// that throws one is not reported twice.
    ///
    /// With `canRecordHere`, what it is handed in a task where that says no is held, and
    /// recorded by `recordHeld()` in the test's own task.
    package init(
        rememberingRefusals: Bool = false,
        canRecordHere: (@Sendable () -> Bool)? = nil,
        _ record: @escaping @Sendable (_ message: String, _ site: DeclarationSite?) -> Void
    ) {
        recordNow = record
        recordedRefusals = rememberingRefusals ? Locked([]) : nil
        self.canRecordHere = canRecordHere
        held = canRecordHere == nil ? nil : Locked(HeldIssues())
        Self.made.increment()
    }

    /// Records `refusal` (a ``InjectionError/notProvidedInTest(_:path:registeredAt:)``) at the
    /// registration's line, where the forgotten stand-in belongs: at once, so that code that
    /// swallows the error does not hide it; once per key, when this recorder remembers refusals.
    func recordRefusal(_ refusal: InjectionError, registeredAt site: RegistrationSite) {
        guard isFirstRecording(of: refusal) else { return }
        record(refusal.description, at: site.declarationSite)
    }

    /// Whether `error` is to be recorded: anything but a strict scope's refusal, or the first
    /// refusal of its key that this recorder records (noted now), when it remembers them.
    private func isFirstRecording(of error: InjectionError) -> Bool {
        guard let recordedRefusals, case .notProvidedInTest(let key, _, _) = error else { return true }
        return recordedRefusals.withLock { $0.insert(key).inserted }
    }

    /// The keys whose refusal this recorder has recorded (none when it does not remember them).
    package var recordedRefusalKeys: Set<DependencyKey> {
        recordedRefusals?.withLock { $0 } ?? []
    }

    /// Whether `error`, thrown out of a test, is a refusal this recorder has recorded already:
    /// the test's result has it, and the thrown copy would report it twice.
    package func hasRecorded(_ error: any Error) -> Bool {
        guard let error = error as? InjectionError, case .notProvidedInTest(let key, _, _) = error else { return false }
        return recordedRefusals?.withLock { $0.contains(key) } ?? false
    }

    /// `current`, read only once a recorder has been made in this process: until then none can
    /// be bound, and the task-local read (about what a resolve costs) would find nothing. For
    /// `@LazyInject`, which captures the recorder whenever an owner is initialised; an app that
    /// does not link `InjectorTesting` never makes one.
    static var currentIfAnyMade: TestIssueRecorder? {
        made.isZero ? nil : current
    }

    /// How many recorders have been made (see `currentIfAnyMade`).
    private static let made = AtomicCount()

    /// `current`, or else the recorder of the test running, when the test binds none (a plain
    /// Swift Testing test or `XCTestCase` that calls `withOverrides`, or resolves from a plain
    /// injector): found through `InjectorTesting`, when the test process links it. Read on
    /// failure only.
    static var currentOrRunningTest: TestIssueRecorder? {
        current ?? runningTestRecorders?.recorderForRunningTest()
    }

    /// `current`, or else the recorder of the test that opened the test scope `injector`
    /// resolves through (a task the test handed the injector to, `Task.detached`, binds none),
    /// or else the running test's. For a failure found through `injector`; read on failure only.
    static func currentOrTest(of injector: DependencyInjector) -> TestIssueRecorder? {
        current ?? injector.testScopeRecorder ?? runningTestRecorders?.recorderForRunningTest()
    }

    /// Runs `body` with `recorder` (`currentOrRunningTest`, kept by a test scope just opened)
    /// bound where none is, so that what fails in a test scope a plain test opens
    /// (`withOverrides`) is recorded as under the trait: a refusal once, however often the code
    /// meets it. When `body` ends, what the recorder held for this task is recorded
    /// (`recordHeld()`). Where a recorder is bound already (its binder records what it holds),
    /// or outside a test, it binds nothing.
    static func binding<Result>(_ recorder: TestIssueRecorder?, _ body: () throws -> Result) rethrows -> Result {
        guard current == nil, let recorder else { return try body() }
        defer { recorder.recordHeld() }
        return try $current.withValue(recorder, operation: body)
    }

    /// `binding(_:_:)` for an asynchronous `body`, in the caller's isolation.
    static func binding<Result>(
        _ recorder: TestIssueRecorder?,
        isolation: isolated (any Actor)? = #isolation,
        _ body: () async throws -> Result
    ) async rethrows -> Result {
        guard current == nil, let recorder else { return try await body() }
        defer { recorder.recordHeld() }
        return try await $current.withValue(recorder, operation: body)
    }

    /// `InjectorTesting`'s `RunningTestIssues`, found by its name at run time: `Injector` may
    /// not import a test framework, and nothing but the test process knows whether it links
    /// `InjectorTesting`. `nil` when it does not.
    private static let runningTestRecorders =
        _typeByName("15InjectorTesting17RunningTestIssuesO") as? any RunningTestRecorderSource.Type

    /// Records `message`, at `site` when known, on the test: at once, or, in a task that cannot
    /// record on the test, when the test's own task calls `recordHeld()` (at once if it has).
    func record(_ message: String, at site: DeclarationSite?) {
        if let held, let canRecordHere, !canRecordHere(), held.withLock({ $0.hold(message, at: site) }) { return }
        recordNow(message, site)
    }

    /// Records, in this task (the test's), what was held for it (see `record(_:at:)`); from now
    /// on, what this recorder is handed is recorded at once, wherever: the test has ended.
    package func recordHeld() {
        guard let held else { return }
        let messages = held.withLock { $0.release() }
        for (message, site) in messages { recordNow(message, site) }
    }

    /// Reports that the `wrapper` property declared at `site` failed with `error`, searching
    /// `injector`, to this task's recorder (see the other `report`). Apart, so that the
    /// wrappers' inlined initialisers call it only on failure.
    @usableFromInline
    static func report(
        _ error: InjectionError,
        of wrapper: StaticString,
        declaredAt site: DeclarationSite,
        searchingIn injector: DependencyInjector
    ) {
        if isRecordedAlready(error) { return }
        report(
            error, of: wrapper, declaredAt: site, searched: injector.searchedDescription,
            to: recorder(for: error, searching: injector))
    }

    /// Where a wrapper records `error`: this task's recorder, or, for a strict scope's refusal
    /// that the resolve left to the wrapper, the running test where no recorder is bound (as
    /// the resolve would have recorded it).
    static func recorder(
        for error: InjectionError,
        capturedAtInit captured: TestIssueRecorder? = current,
        searching injector: DependencyInjector
    ) -> TestIssueRecorder? {
        guard case .notProvidedInTest = error else { return captured }
        return captured ?? currentOrTest(of: injector)
    }

    /// Whether a wrapper's `error` is on the test already: a strict scope's refusal is, at the
    /// registration's line, unless it is of the property's own key outside a builder (see
    /// `DependencyInjector.refusal`).
    static func isRecordedAlready(_ error: InjectionError) -> Bool {
        guard case .notProvidedInTest = error else { return false }
        return error.path.count > 1 || ResolutionContext.current.isBuilding
    }

    /// Reports that the `wrapper` property declared at `site` failed with `error`, having
    /// `searched` an injector: to a running `verify()`, which reports it itself, or else to
    /// `recorder`.
    static func report(
        _ error: InjectionError,
        of wrapper: StaticString,
        declaredAt site: DeclarationSite,
        searched: @autoclosure () -> String,
        to recorder: TestIssueRecorder?
    ) {
        if let verifying = Verification.wrapperFailures {
            verifying.append(error)
            return
        }
        // A refusal once per key, whichever recorded it first: this wrapper, an earlier read, a resolve.
        guard let recorder, recorder.isFirstRecording(of: error) else { return }
        recorder.record(
            """
            \(wrapper) property declared at \(site.location) could not be resolved.
            \(error.description)
            Searched: \(searched()).
            \(advice(for: wrapper))
            """,
            at: site
        )
    }

    /// What reading the property now does, and how to get the error without stopping.
    private static func advice(for wrapper: StaticString) -> String {
        switch "\(wrapper)" {
        case "@OptionalInject":
            "The property reads as nil; `$property` gives this error."
        case "@LazyInject", "@Provider":
            "Reading the property stops the test process; `$property` gives this error without stopping."
        default:
            "Reading the property stops the test process. To fail only this test, create the object with "
                + "`try DependencyInjector.current.make { … }`, which throws this error, or check `$property` first."
        }
    }
}

/// Gives the recorder of the test running in the current task, if any: adopted by
/// `InjectorTesting`'s `RunningTestIssues`, which `TestIssueRecorder.currentOrRunningTest`
/// finds by name.
package protocol RunningTestRecorderSource: SendableMetatype {
    /// A recorder for the test running in this task; `nil` outside a test.
    static func recorderForRunningTest() -> TestIssueRecorder?
}

/// What a recorder was handed in tasks that cannot record on its test, held for the test's own
/// task (see `TestIssueRecorder.recordHeld()`).
private struct HeldIssues {
    private var messages: [(message: String, site: DeclarationSite?)] = []
    /// Whether the test's task has recorded what was held: nothing more is held.
    private var isReleased = false

    /// Holds `message`, unless what was held is released; whether it did.
    mutating func hold(_ message: String, at site: DeclarationSite?) -> Bool {
        guard !isReleased else { return false }
        messages.append((message, site))
        return true
    }

    /// What was held, released: nothing more will be.
    mutating func release() -> [(message: String, site: DeclarationSite?)] {
        isReleased = true
        defer { messages = [] }
        return messages
    }
}
