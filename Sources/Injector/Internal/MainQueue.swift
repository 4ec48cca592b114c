import Dispatch

/// Whether the code running now is on the main dispatch queue, which executes the main actor's
/// work: then a synchronous resolve may run a main-actor factory in place.
///
/// It asks the queue, not the thread: on Linux, a program with an `async` main runs main-actor
/// jobs on whichever worker thread drains the main queue, and a thread that ran main-actor
/// work once may run any queue's work later. `MainActor.assumeIsolated` asserts the same queue,
/// so it never stops the program where this answers `true`.
enum MainQueue {
    /// Set on the main queue once, the first time it is asked about; only the main queue (and
    /// queues that target it) answer it.
    private static let marker: DispatchSpecificKey<Bool> = {
        let marker = DispatchSpecificKey<Bool>()
        DispatchQueue.main.setSpecific(key: marker, value: true)
        return marker
    }()

    static var isCurrent: Bool {
        DispatchQueue.getSpecific(key: marker) == true
    }
}
