/// Where a test scope hears, at once, of what fails in it without a throw that reaches the
/// test: a wrapped property whose resolution failed (recorded on the test that created it, even
/// when a later read stops the process), a strict scope's refusal (even when the code swallows
/// the error), a key path that fell back to its default. `InjectorTesting` binds one for each
/// test (the trait and the XCTest class); the library reads it only on failure.
@usableFromInline
package struct TestIssueRecorder: Sendable {
    /// The recorder of the test running in this task, if any.
    @TaskLocal package static var current: TestIssueRecorder?

    private let record: @Sendable (_ message: String, _ site: DeclarationSite?) -> Void

    /// A recorder that hands each failure's message, and where the property is declared (or
    /// the failing registration made; `nil` when unknown), to `record`.
    package init(_ record: @escaping @Sendable (_ message: String, _ site: DeclarationSite?) -> Void) {
        self.record = record
        Self.made.raise()
    }

    /// `current`, read only once a recorder has been made in this process: until then none can
    /// be bound, and the task-local read (about what a resolve costs) would find nothing. For
    /// `@LazyInject`, which captures the recorder whenever an owner is initialised; an app that
    /// does not link `InjectorTesting` never makes one.
    static var currentIfAnyMade: TestIssueRecorder? {
        made.isRaised ? current : nil
    }

    /// Raised by the first recorder made (see `currentIfAnyMade`).
    private static let made = Latch()

    /// Records `message`, at `site` when known, on the test.
    func record(_ message: String, at site: DeclarationSite?) {
        record(message, site)
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
        report(error, of: wrapper, declaredAt: site, searched: injector.searchedDescription, to: .current)
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
        let context = ResolutionContext.current
        if context.wrapperFailures != nil {
            context.wrapperFailures?.append(error)
            return
        }
        guard let recorder else { return }
        recorder.record(
            """
            \(wrapper) property declared at \(site.location) could not be resolved.
            \(error.description)
            Searched: \(searched()).
            \(advice(for: wrapper))
            """,
            site
        )
    }

    /// What reading the property now does, and how to get the error without stopping.
    private static func advice(for wrapper: StaticString) -> String {
        switch "\(wrapper)" {
        case "@OptionalInject":
            "The property reads as nil; `$property` gives this error."
        case "@LazyInject":
            "Reading the property stops the test process; `$property` gives this error without stopping."
        default:
            "Reading the property stops the test process. To fail only this test, create the object with "
                + "`try DependencyInjector.current.make { … }`, which throws this error, or check `$property` first."
        }
    }
}
