import Dispatch

/// Whether the code running now is on the main dispatch queue (the main actor's executor), so
/// that a main-actor factory may run in place.
///
/// It asks the queue, not the thread: on Linux, with an `async` main, main-actor jobs run on
/// whichever thread drains the main queue. `MainActor.assumeIsolated` checks the same queue.
enum MainQueue {
    /// Set on the main queue the first time it is asked for.
    private static let marker: DispatchSpecificKey<Bool> = {
        let marker = DispatchSpecificKey<Bool>()
        DispatchQueue.main.setSpecific(key: marker, value: true)
        return marker
    }()

    static var isCurrent: Bool {
        DispatchQueue.getSpecific(key: marker) == true
    }
}
