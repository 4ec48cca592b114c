/// The resolutions in progress in the current task and the tasks it is working for,
/// outermost first.
///
/// A chain of async resolutions suspends and resumes on any thread, so a per-thread stack
/// (what the sync injector uses) would lose it; a task-local follows it across every `await`,
/// into `async let` and task-group children, and into the task that creates a singleton on the
/// injector's behalf (which copies its first requester's task-locals).
enum AsyncResolutionPath {
    /// One resolution in progress.
    struct Frame: Sendable {
        let registration: Registration
        /// The shared creation this frame runs, for a singleton or weak registration.
        let creation: AsyncCreation?
    }

    @TaskLocal static var frames: [Frame] = []

    /// The keys being resolved in this task, outermost first.
    static var keys: [DependencyKey] { frames.map(\.registration.key) }

    /// Throws `circularDependency` when `registration`'s factory is already running in
    /// `frames`: running it again would never end.
    static func checkNotResolving(_ registration: Registration, in frames: [Frame]) throws(InjectionError) {
        if frames.contains(where: { $0.registration === registration }) {
            throw .circularDependency(path: frames.map(\.registration.key) + [registration.key])
        }
    }
}
