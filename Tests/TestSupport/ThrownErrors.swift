#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Counts the errors thrown in a task, through the Swift runtime's will-throw hooks: the
/// hooks every `throw` calls (Swift Testing uses them to record a backtrace per thrown error,
/// which is why a throw on a hot path is so costly inside a test process).
///
/// ```swift
/// let thrown = try ThrownErrors.count { _ = try injector.resolve(Service.self) }
/// #expect(thrown == 0)
/// ```
///
/// Only the throws of the counting task and its child tasks (which inherit the task-local
/// counter) are counted, so tests running in parallel do not disturb each other. The hooks
/// are installed once per process and call the ones installed before them, so the test
/// runner keeps its own.
public enum ThrownErrors {
    /// The counter of the task that is counting, if any.
    @TaskLocal fileprivate static var counter: Counter?

    /// How many errors were thrown while `body` ran.
    public static func count(during body: () throws -> Void) rethrows -> Int {
        guard Hooks.installed else { return -1 }
        let counter = Counter()
        try $counter.withValue(counter) { try body() }
        return counter.value
    }

    /// How many errors were thrown while `body` ran, in its task and its child tasks.
    public static func count(
        isolation: isolated (any Actor)? = #isolation,
        during body: () async throws -> Void
    ) async rethrows -> Int {
        guard Hooks.installed else { return -1 }
        let counter = Counter()
        try await $counter.withValue(counter) { try await body() }
        return counter.value
    }
}

/// The runtime's hooks, as C function pointers. `_swift_willThrow` is called with the boxed
/// error; `_swift_willThrowTypedImpl`, when set, with a typed error unboxed (when it is not set,
/// the runtime boxes a typed error and calls `_swift_willThrow`).
private typealias WillThrow = @convention(c) (UnsafeMutableRawPointer?) -> Void
private typealias WillThrowTyped = @convention(c) (UnsafeRawPointer?, UnsafeRawPointer?, UnsafeRawPointer?) -> Void

private struct Hooks: Sendable {
    let previous: WillThrow?
    let previousTyped: WillThrowTyped?

    /// Whether the hooks are in place (installed the first time it is read).
    static let installed: Bool = current != nil

    /// The hooks that were installed before ours, read and replaced once.
    static let current: Hooks? = {
        #if canImport(Darwin)
            let everywhere = UnsafeMutableRawPointer(bitPattern: -2)  // RTLD_DEFAULT
        #else
            let everywhere: UnsafeMutableRawPointer? = nil  // RTLD_DEFAULT
        #endif
        guard let untyped = dlsym(everywhere, "_swift_willThrow"),
            let typed = dlsym(everywhere, "_swift_willThrowTypedImpl")
        else { return nil }
        // The runtime reads these pointers without a lock; a pointer-sized aligned store is
        // what the runtime's own setter does too, and ours happens once, before any counting.
        let untypedSlot = untyped.assumingMemoryBound(to: WillThrow?.self)
        let typedSlot = typed.assumingMemoryBound(to: WillThrowTyped?.self)
        let hooks = Hooks(previous: untypedSlot.pointee, previousTyped: typedSlot.pointee)
        untypedSlot.pointee = { error in
            ThrownErrors.counter?.increment()
            Hooks.current?.previous?(error)
        }
        // Without a typed hook, typed errors reach the untyped one, boxed: keep it that way.
        if hooks.previousTyped != nil {
            typedSlot.pointee = { value, type, conformance in
                ThrownErrors.counter?.increment()
                Hooks.current?.previousTyped?(value, type, conformance)
            }
        }
        return hooks
    }()
}
