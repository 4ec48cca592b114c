import Foundation
import Injector

/// The resolution events an observer collects, from any thread.
final class ResolutionLog: @unchecked Sendable {
    // `recorded` is guarded by `lock`.
    private let lock = NSLock()
    private var recorded: [ResolutionEvent] = []

    var events: [ResolutionEvent] { lock.withLock { recorded } }

    func record(_ event: ResolutionEvent) {
        lock.withLock { recorded.append(event) }
    }
}
