package import Injector
import Testing

#if canImport(XCTest)
    import Foundation  // `Thread.isMainThread`
    import XCTest
#endif

extension TestIssueRecorder {
    /// Records each failure as an issue of the Swift Testing test running in the task (`test`),
    /// at the property's declaration (or the registration's line), where known. One for each
    /// test: it remembers the refusals it recorded (see `init`), so that a refusal the test
    /// then throws is reported once.
    ///
    /// `Issue.record` finds the test through the task's `Test.current`: what it is handed in a
    /// task without one (a `Task.detached` the test awaits) is held, and recorded on the test
    /// by `end()` in the test's task, when the test's body returns; after that, printed.
    static func recordingIssues(of test: Test) -> TestIssueRecorder {
        TestIssueRecorder(
            rememberingRefusals: true, endingWith: "\(test.id)", canRecordHere: { Test.current != nil }, recordIssue)
    }

    /// Records `message` as an issue of the running Swift Testing test, at `site` where known;
    /// whether the test fails with it (`false`: a `withKnownIssue` expected it).
    fileprivate static func recordIssue(_ message: String, at site: DeclarationSite?) -> Bool {
        let location = site.map {
            SourceLocation(
                fileID: "\($0.fileID)", filePath: "\($0.filePath ?? $0.fileID)", line: Int($0.line), column: 1)
        }
        let issue =
            if let location {
                Issue.record(Comment(rawValue: message), sourceLocation: location)
            } else {
                Issue.record(Comment(rawValue: message))
            }
        #if compiler(>=6.3)
            return issue.isFailure
        #else
            _ = issue
            return true  // whether an issue is known is public from Swift 6.3 only
        #endif
    }
}

/// Records on the test running when it binds no recorder (a plain `@Test` or `XCTestCase`
/// that calls `withOverrides(strict:)`): found by `Injector` by its name, so keep the name
/// (`TestIssueRecorder.currentOrRunningTest`). Outside a Swift Testing test, a failure goes
/// to XCTest, which records it on the test case it runs, if any; off the main thread it is
/// printed too: XCTest drops it where no test case runs (a thread a Swift Testing test
/// started), and only an observer registered before a test case starts knows whether one
/// runs. A synchronous XCTest test runs on the main thread, where its failures are not
/// printed twice (principle 14: never lost in silence).
package enum RunningTestIssues: RunningTestRecorderSource {
    package static func recorderForRunningTest() -> TestIssueRecorder? {
        if let test = Test.current { return .recordingIssues(of: test) }
        #if canImport(XCTest)
            if #available(watchOS 7.4, *) { return .failingTestCase() }
        #endif
        return nil
    }
}

#if canImport(XCTest)
    // XCTest exists on watchOS from 7.4 only (Xcode 12.5); the package declares watchOS 6.
    @available(watchOS 7.4, *)
    extension TestIssueRecorder {
        /// Fails the running XCTest test case, at the property's declaration (or the
        /// registration's line), where known: `testCase`, until it ends (`end()`), when named;
        /// else whichever runs (a plain `XCTestCase`'s `withOverrides`, whose end is unknown),
        /// printed too off the main thread (see `RunningTestIssues`).
        package static func failingTestCase(named testCase: String? = nil) -> TestIssueRecorder {
            TestIssueRecorder(rememberingRefusals: true, endingWith: testCase) { message, site in
                if testCase == nil, !Thread.isMainThread { print(message) }
                if let site {
                    XCTFail(message, file: site.filePath ?? site.fileID, line: site.line)
                } else {
                    XCTFail(message)
                }
                return true
            }
        }
    }
#endif
