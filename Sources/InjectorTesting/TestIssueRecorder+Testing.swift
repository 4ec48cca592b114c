package import Injector
import Testing

#if canImport(XCTest)
    import XCTest
#endif

extension TestIssueRecorder {
    /// Records each failure as an issue of the Swift Testing test running in the task, at the
    /// property's declaration (or the registration's line), where known. One for each test:
    /// it remembers the refusals it recorded (see `init(rememberingRefusals:_:)`), so that a
    /// refusal the test then throws is reported once.
    ///
    /// `Issue.record` finds the test through the task's `Test.current`: what it is handed in a
    /// task without one (a `Task.detached` the test awaits) is held, and recorded on the test
    /// by `recordHeld()` in the test's task, when the test's body returns.
    package static func recordingIssues() -> TestIssueRecorder {
        TestIssueRecorder(rememberingRefusals: true, canRecordHere: { Test.current != nil }, recordIssue)
    }

    /// Records `message` as an issue of the running Swift Testing test, at `site` where known.
    fileprivate static func recordIssue(_ message: String, at site: DeclarationSite?) {
        guard let site else {
            Issue.record(Comment(rawValue: message))
            return
        }
        let location = SourceLocation(
            fileID: "\(site.fileID)",
            filePath: "\(site.filePath ?? site.fileID)",
            line: Int(site.line),
            column: 1
        )
        Issue.record(Comment(rawValue: message), sourceLocation: location)
    }
}

/// Records on the test running when it binds no recorder (a plain `@Test` or `XCTestCase`
/// that calls `withOverrides(strict:)`): found by `Injector` by its name, so keep the name
/// (`TestIssueRecorder.currentOrRunningTest`). Outside a Swift Testing test, a failure goes
/// to XCTest, which records it on the test case it runs, if any (and drops it otherwise).
package enum RunningTestIssues: RunningTestRecorderSource {
    package static func recorderForRunningTest() -> TestIssueRecorder? {
        if Test.current != nil { return .recordingIssues() }
        #if canImport(XCTest)
            if #available(watchOS 7.4, *) { return .failingTestCase }
        #endif
        return nil
    }
}

#if canImport(XCTest)
    // XCTest exists on watchOS from 7.4 only (Xcode 12.5); the package declares watchOS 6.
    @available(watchOS 7.4, *)
    extension TestIssueRecorder {
        /// Fails the running XCTest test case, at the property's declaration (or the
        /// registration's line), where known.
        package static var failingTestCase: TestIssueRecorder {
            TestIssueRecorder(rememberingRefusals: true) { message, site in
                guard let site else {
                    XCTFail(message)
                    return
                }
                XCTFail(message, file: site.filePath ?? site.fileID, line: site.line)
            }
        }
    }
#endif
