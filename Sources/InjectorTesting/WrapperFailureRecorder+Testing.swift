package import Injector
import Testing
import XCTest

extension WrapperFailureRecorder {
    /// Records each failure as an issue of the Swift Testing test running in the task, at the
    /// property's declaration.
    package static let recordingIssues = WrapperFailureRecorder { message, site in
        let location = SourceLocation(
            fileID: "\(site.fileID)",
            filePath: "\(site.filePath ?? site.fileID)",
            line: Int(site.line),
            column: 1
        )
        Issue.record(Comment(rawValue: message), sourceLocation: location)
    }

    /// Fails the running XCTest test case, at the property's declaration.
    package static let failingTestCase = WrapperFailureRecorder { message, site in
        XCTFail(message, file: site.filePath ?? site.fileID, line: site.line)
    }
}
