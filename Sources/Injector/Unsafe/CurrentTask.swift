/// The current task told apart from the others: the actor face's record of the runs that did
/// not bind their frames (`AsyncResolutionContext.Resolve`), each with the task it runs in.
enum CurrentTask {
    /// The current task's address, 0 outside a task. Safe to compare while the task runs: a
    /// record keeps it only while a run of that task is in progress, and a task's runs all
    /// end before it does, so no record names an ended task whose address a new one reuses.
    @inline(__always)
    static var address: UInt {
        // `UnsafeCurrentTask` is one reference to the task; its bits are the task's address, and
        // `nil`'s are 0 (the reference's extra inhabitant). Read as they are: unwrapped by
        // `map`, the optional was copied through its value witnesses (a read per run).
        withUnsafeCurrentTask { task in unsafeBitCast(task, to: UInt.self) }
    }
}
