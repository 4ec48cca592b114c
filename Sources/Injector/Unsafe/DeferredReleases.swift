import Dispatch

/// What a write took out of a published table while readers were inside the table: released
/// once each of those readers has left, never waited for by the write (issue 40).
///
/// A write that removes an entry (or replaces a whole table) takes a snapshot of the
/// announcements standing at that moment (`Hazards.announcements(of:)`): a reader that
/// announces the table later cannot reach what was removed, so only those are waited for.
/// With none (the common case: no thread was reading), the write releases at once, before it
/// returns. Otherwise what it removed is kept here, and released by the first write in the
/// process that takes something out, or pass on a background queue about a millisecond
/// apart, that finds each of those announcements withdrawn. A reader stalled inside a table (preempted, stopped by a signal)
/// delays only the release of what it may be reading, not the write.
enum DeferredReleases {
    /// An object to release, and the announcements to see withdrawn first.
    private struct Pending: @unchecked Sendable {
        // `@unchecked Sendable`: the object's retain is owned here, handed over by the write,
        // and released once, by whoever takes the entry out under `state`'s lock.
        let announcements: [Hazards.Announcement]
        let object: Unmanaged<AnyObject>
    }

    private struct State {
        var pending: [Pending] = []
        /// Whether a background pass is scheduled, which schedules the next while any remain.
        var isPassScheduled = false
    }

    private static let state = Locked(State())

    /// Releases `object` once every one of `announcements` has been withdrawn: now, when there
    /// are none, else later (see the type's comment). Called after the registry lock is let
    /// go: a release runs `deinit`s, user code.
    static func release(_ object: Unmanaged<AnyObject>, after announcements: [Hazards.Announcement]) {
        guard !announcements.isEmpty else {
            releaseNow(object)
            return
        }
        let schedulesPass = state.withLock { state in
            state.pending.append(Pending(announcements: announcements, object: object))
            defer { state.isPassScheduled = true }
            return !state.isPassScheduled
        }
        if schedulesPass { schedulePass() }
    }

    /// Releases what waits for readers that have all left since: called by every write that
    /// took something out, before its own releases, and by the background pass. One lock when
    /// nothing waits.
    static func releaseWhatReadersLeft() {
        let left = state.withLock { state -> [Pending] in
            guard !state.pending.isEmpty else { return [] }
            var left: [Pending] = []
            state.pending.removeAll { pending in
                guard Hazards.haveEnded(pending.announcements) else { return false }
                left.append(pending)
                return true
            }
            return left
        }
        for pending in left { releaseNow(pending.object) }
    }

    /// Whether anything waits for readers to leave (for tests).
    static var isEmpty: Bool { state.withLock { $0.pending.isEmpty } }

    /// A pass on a background queue in about a millisecond, and another after it while
    /// anything still waits: so that what a last write removed is released even when no
    /// write follows.
    private static func schedulePass() {
        DispatchQueue.global(qos: .utility).asyncAfter(deadline: .now() + .milliseconds(1)) {
            releaseWhatReadersLeft()
            let again = state.withLock { state in
                state.isPassScheduled = !state.pending.isEmpty
                return state.isPassScheduled
            }
            if again { schedulePass() }
        }
    }

    /// Releases `object`: a call the optimiser cannot see into, so that it does not hoist the
    /// release above the check for readers, whose atomic loads never touch it.
    @inline(never) @_optimize(none)
    private static func releaseNow(_ object: Unmanaged<AnyObject>) {
        object.release()
    }
}
