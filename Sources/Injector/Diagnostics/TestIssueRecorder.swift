/// Where a test scope hears, at once, of what fails in it without a throw that reaches the
/// test: a wrapped property whose resolution failed (recorded on the test that created it, even
/// when a later read stops the process), a strict scope's refusal (even when the code swallows
/// the error), a key path that fell back to its default. `InjectorTesting` binds one for each
/// test (the trait and the XCTest class); the library reads it only on failure.
@usableFromInline
package struct TestIssueRecorder: Sendable {
    /// The recorder of the test running in this task, if any.
    @TaskLocal package static var current: TestIssueRecorder?

    /// Records a message on the test; whether the test fails with it (`false`: a known issue,
    /// one that a `withKnownIssue` around it expected).
    private let recordNow: @Sendable (_ message: String, _ site: DeclarationSite?) -> Bool
    /// The keys whose refusal this recorder has recorded (or holds to record), when it
    /// remembers them (one test's recorder, see `init`), each with whether the test fails with
    /// it (`false`: a known issue, one that a `withKnownIssue` around it expected); guarded by
    /// its lock.
    private let recordedRefusals: Locked<[DependencyKey: Bool]>?
    /// Whether this task can record on the recorder's test, for a recorder that cannot record
    /// from any task (Swift Testing's, which finds the test through the task's `Test.current`):
    /// what it is handed elsewhere (a `Task.detached` the test awaits) is held for the test's
    /// own task (see `end()`). `nil` for one that records from any task.
    private let canRecordHere: (@Sendable () -> Bool)?
    /// The test's run, for a recorder that is told when its test ends (`end()`): the test's
    /// name, what the recorder holds until then, and whether it has ended. `nil` for one whose
    /// test's end is unknown.
    private let run: Locked<TestRun>?

    /// A recorder that hands each failure's message, and where the property is declared (or
    /// the failing registration made; `nil` when unknown), to `record`, which says whether the
    /// test fails with it (`false`: a known issue).
    ///
    /// With `rememberingRefusals` (one recorder per test), it records each strict-scope
    /// refusal once, and knows the refusals it recorded (`hasRecorded(_:)`), so that a test
    /// that throws one is not reported twice.
    ///
    /// With `endingWith`, the name of its test, it is told when the test ends (`end()`): from
    /// then on, what it can only record on another test, or on none, is printed instead,
    /// naming the test. With `canRecordHere` too, what it is handed in a task where that says
    /// no is held until then, and recorded by `end()` in the test's own task.
    package init(
        rememberingRefusals: Bool = false,
        endingWith testName: String? = nil,
        canRecordHere: (@Sendable () -> Bool)? = nil,
        _ record: @escaping @Sendable (_ message: String, _ site: DeclarationSite?) -> Bool
    ) {
        recordNow = record
        recordedRefusals = rememberingRefusals ? Locked([:]) : nil
        self.canRecordHere = canRecordHere
        run = testName.map { Locked(TestRun(test: $0)) }
        Self.made.increment()
    }

    /// Records `refusal` (a ``InjectionError/notProvidedInTest(_:path:registeredAt:)``) at the
    /// registration's line, where the forgotten stand-in belongs: at once, so that code that
    /// swallows the error does not hide it; once per key, when this recorder remembers refusals.
    func recordRefusal(_ refusal: InjectionError, registeredAt site: RegistrationSite) {
        record(refusal.description, at: site.declarationSite, for: refusal)
    }

    /// Records `message`, about `error`: anything but a strict scope's refusal each time; a
    /// refusal once per key when this recorder remembers them, noting whether the test fails
    /// with it (see `hasRecorded(_:)`).
    private func record(_ message: @autoclosure () -> String, at site: DeclarationSite?, for error: InjectionError) {
        guard let recordedRefusals, case .notProvidedInTest(let key, _, _) = error else {
            record(message(), at: site)
            return
        }
        // Once, a known issue too: a test that expects a refusal expects it however often its
        // code meets it (a later one the code swallows is not recorded: see StrictTestScopes.md).
        let isFirst = recordedRefusals.withLock { refusals in
            if refusals[key] != nil { return false }
            refusals[key] = true  // until the recording says it is known
            return true
        }
        guard isFirst else { return }
        if !record(message(), at: site) {
            recordedRefusals.withLock { $0[key] = false }
        }
    }

    /// The keys whose refusal this recorder has recorded as a failure of its test (none when it
    /// does not remember them).
    package var recordedRefusalKeys: Set<DependencyKey> {
        recordedRefusals.map { refusals in refusals.withLock { Set($0.filter(\.value).keys) } } ?? []
    }

    /// Whether `error`, thrown out of a test, is a refusal this recorder has recorded already as
    /// a failure of the test (or holds to record): the test's result has it, and the thrown
    /// copy would report it twice. Not one recorded as a known issue: expected where it was
    /// met, not where it is thrown, the thrown copy is the test's failure.
    package func hasRecorded(_ error: any Error) -> Bool {
        guard let error = error as? InjectionError, case .notProvidedInTest(let key, _, _) = error else { return false }
        return recordedRefusals?.withLock { $0[key] } ?? false
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
    /// resolves through (a task the test handed the injector to, `Task.detached`, binds none).
    /// For a failure found through `injector`; read on failure only.
    static func currentOrScope(of injector: DependencyInjector) -> TestIssueRecorder? {
        current ?? injector.testScopeRecorder
    }

    /// `currentOrScope(of:)`, or else the running test's: for a strict scope's refusal, which
    /// is recorded wherever a test runs.
    static func currentOrTest(of injector: DependencyInjector) -> TestIssueRecorder? {
        currentOrScope(of: injector) ?? runningTestRecorders?.recorderForRunningTest()
    }

    /// Runs `body` with `recorder` (`currentOrRunningTest`, kept by a test scope just opened)
    /// bound where none is, so that what fails in a test scope a plain test opens
    /// (`withOverrides`) is recorded as under the trait: a refusal once, however often the code
    /// meets it. When `body` ends, what the recorder held for this task is recorded; the test
    /// goes on (a plain test's end is unknown here: the recorder does not end). Where a
    /// recorder is bound already (its binder ends it), or outside a test, it binds nothing.
    static func binding<Result>(_ recorder: TestIssueRecorder?, _ body: () throws -> Result) rethrows -> Result {
        guard current == nil, let recorder else { return try body() }
        defer { recorder.recordHeld(ending: false) }
        return try $current.withValue(recorder, operation: body)
    }

    /// `binding(_:_:)` for an asynchronous `body`, in the caller's isolation.
    static func binding<Result>(
        _ recorder: TestIssueRecorder?,
        isolation: isolated (any Actor)? = #isolation,
        _ body: () async throws -> Result
    ) async rethrows -> Result {
        guard current == nil, let recorder else { return try await body() }
        defer { recorder.recordHeld(ending: false) }
        return try await $current.withValue(recorder, operation: body)
    }

    /// `InjectorTesting`'s `RunningTestIssues`, found by its name at run time: `Injector` may
    /// not import a test framework, and nothing but the test process knows whether it links
    /// `InjectorTesting`. `nil` when it does not.
    private static let runningTestRecorders =
        _typeByName("15InjectorTesting17RunningTestIssuesO") as? any RunningTestRecorderSource.Type

    /// Records `message`, at `site` when known, on the test: at once, or, in a task that cannot
    /// record on the test, when the test's own task ends the recorder (`end()`). Once the test
    /// has ended, what would be recorded on another test, or on none, is printed instead:
    /// work the test left running is not another test's failure. Whether the test fails with
    /// it (`false`: a known issue).
    @discardableResult
    func record(_ message: String, at site: DeclarationSite?) -> Bool {
        if let canRecordHere, canRecordHere() { return recordNow(message, site) }
        guard let run else { return recordNow(message, site) }
        switch run.withLock({ $0.take(message, at: site, holding: canRecordHere != nil) }) {
        case .held: break
        case .running: return recordNow(message, site)
        case .ended(let test):
            print(
                "Injector: this failure came after its test (\(test)) ended, in work the test left running; "
                    + "printed, not recorded, as it would fail a test that did nothing wrong.\n\(message)")
        }
        return true
    }

    /// Ends the recorder's test: records, in this task (the test's), what was held for it (see
    /// `record(_:at:)`); from now on, what it could only record on another test, or on none, is
    /// printed.
    package func end() {
        recordHeld(ending: true)
    }

    /// Records, in this task (the test's), what was held for it; with `ending`, the test ends.
    private func recordHeld(ending: Bool) {
        guard let run else { return }
        let messages = run.withLock { $0.take(ending: ending) }
        for (message, site) in messages { _ = recordNow(message, site) }
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

    /// Where a wrapper records `error`: the recorder of the task that made it, or else of the
    /// test scope it searched (a task the test handed the injector to binds none), or else,
    /// for a strict scope's refusal that the resolve left to the wrapper, the running test's
    /// (as the resolve would have recorded it).
    static func recorder(
        for error: InjectionError,
        capturedAtInit captured: TestIssueRecorder? = current,
        searching injector: DependencyInjector
    ) -> TestIssueRecorder? {
        if let captured { return captured }
        guard case .notProvidedInTest = error else { return currentOrScope(of: injector) }
        return currentOrTest(of: injector)
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
        recorder?.record(
            """
            \(wrapper) property declared at \(site.location) could not be resolved.
            \(error.description)
            Searched: \(searched()).
            \(advice(for: wrapper))
            """,
            at: site,
            for: error
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

/// A recorder's test, from the recorder's side: running, with what the recorder was handed in
/// tasks that cannot record on the test, held for the test's own task; or ended (see
/// `TestIssueRecorder.end()`).
private struct TestRun {
    /// The test's name, for what is printed once it has ended.
    let test: String
    private var held: [(message: String, site: DeclarationSite?)] = []
    private var phase = Phase.holding

    /// Where the test is, for what the recorder is handed (see `take(_:at:holding:)`).
    private enum Phase {
        /// Running: what a task that cannot record on the test is handed is held.
        case holding
        /// Running, what was held recorded (a plain test's scope ended, the test's end
        /// unknown): what comes later is recorded at once, wherever it can be; held, with no
        /// one left to record it, it would be lost.
        case recordingAtOnce
        /// Ended: what it is handed is printed.
        case ended
    }

    init(test: String) {
        self.test = test
    }

    /// What becomes of a message handed to the recorder: held until the test ends, or left to
    /// the caller, to record while the test runs, or to print once it has ended.
    enum Outcome {
        case held, running
        case ended(test: String)
    }

    /// What becomes of `message`, handed to the recorder now: held when `holding` (in a task
    /// that cannot record on the test) while the test runs and holds.
    mutating func take(_ message: String, at site: DeclarationSite?, holding: Bool) -> Outcome {
        switch phase {
        case .ended: return .ended(test: test)
        case .recordingAtOnce: return .running
        case .holding:
            guard holding else { return .running }
            held.append((message, site))
            return .held
        }
    }

    /// What was held, to record now; with `ending`, the test ends too: nothing more will be.
    /// Without, what comes later is recorded at once (see `Phase.recordingAtOnce`).
    mutating func take(ending: Bool) -> [(message: String, site: DeclarationSite?)] {
        phase = ending ? .ended : .recordingAtOnce
        defer { held = [] }
        return held
    }
}
