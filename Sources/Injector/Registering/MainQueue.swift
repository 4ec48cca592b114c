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

    /// Runs `body` on the main actor, for `key`'s main-actor factory or hook: in place when
    /// this is the main queue (a sync resolve cannot hop there), else it throws
    /// ``InjectionError/requiresMainActor(_:path:)``.
    static func run<Result>(for key: DependencyKey, _ body: @MainActor () throws -> Result) throws -> Result {
        guard isCurrent else { throw InjectionError.requiresMainActor(key, path: ResolutionContext.current.path) }
        // Carried out of `assumeIsolated` unchecked, as every value of the sync face is handed
        // out: `Result` need not be `Sendable` (a main-actor protocol's existential).
        nonisolated(unsafe) var result: Result?
        try MainActor.assumeIsolated { result = try body() }
        // Unreachable: `body` returned, so `result` is set.
        guard let result else { throw InjectionError.requiresMainActor(key, path: []) }
        return result
    }

    /// `run(for:_:)` of `body` with `value`, made in nonisolated code and handed to it
    /// unchecked, as every value of the sync face is handed out.
    static func run<Result, Value>(
        for key: DependencyKey, handing value: Value, _ body: @MainActor (Value) throws -> Result
    ) throws -> Result {
        nonisolated(unsafe) let value = value
        return try run(for: key) { try body(value) }
    }
}
