/// One resolve, as an observer installed with ``DependencyInjector/observe(_:)`` sees it.
///
/// ```swift
/// injector.observe { event in
///     print(event)  // MyApp.Checkout: created in 412 µs (via MyApp.App)
/// }
/// ```
///
/// Delivered when its resolve finishes: a factory's resolves before the one that ran it.
public struct ResolutionEvent: Sendable, CustomStringConvertible {
    /// How a resolve ended.
    ///
    /// ```swift
    /// if case .failed(let error) = event.outcome { log(error) }
    /// ```
    public enum Outcome: Sendable {
        /// A cache hit: an instance, or a kept singleton or weak instance (maybe just created by another thread).
        case cached
        /// A factory ran to make the value. A cache miss (every transient resolve is one).
        case created
        /// The resolve threw `error`.
        case failed(InjectionError)
        /// Not a resolve: a `register` or `unregister` of the key that a sealed injector
        /// refused (see ``DependencyInjector/seal()``). The registration is unchanged.
        case refused
    }

    /// The key that was resolved: `if event.key == DependencyKey(Database.self) { … }`.
    public let key: DependencyKey

    /// The chain of resolutions that led here, outermost first, ending with ``key``:
    /// `event.path.count > 1` when a factory asked for it.
    public var path: [DependencyKey] { resolvers + [key] }

    /// The resolutions that led here, outermost first, without ``key``: empty for a resolve
    /// that no factory asked for, which then allocates nothing (`path` is made when read).
    let resolvers: [DependencyKey]

    /// How the resolve ended: `if case .created = event.outcome { … }`.
    public let outcome: Outcome

    /// How long the resolve took, in nanoseconds, including the factories it ran:
    /// `if event.durationNanoseconds > 1_000_000 { … }`.
    ///
    /// 0 for a resolve that read a value its injector held ready (a `cached` event, or its
    /// rare failure): nothing runs or waits there, and it takes less time than two reads of
    /// the clock.
    public let durationNanoseconds: UInt64

    /// How long the resolve took, including the factories it ran.
    ///
    /// ```swift
    /// if event.duration > .milliseconds(10) { print("slow: \(event.key)") }
    /// ```
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    public var duration: Duration { .nanoseconds(Int64(clamping: durationNanoseconds)) }

    /// Whether an existing value was returned (no factory ran): `hits += event.isCacheHit ? 1 : 0`.
    public var isCacheHit: Bool {
        if case .cached = outcome { return true }
        return false
    }

    /// The error the resolve threw, if it failed: `if let error = event.error { log(error) }`.
    public var error: InjectionError? {
        if case .failed(let error) = outcome { return error }
        return nil
    }

    /// One line: the key, the outcome, the time, and the resolvers that led here.
    ///
    /// `MyApp.Checkout: created in 412 µs (via MyApp.App)`
    public var description: String {
        let what: String
        switch outcome {
        case .cached: what = "cached"
        case .created: what = "created"
        case .failed(let error): what = "failed (\(error.description.prefix { $0 != "\n" }))"
        case .refused: return "\(key): register or unregister refused (the injector is sealed)"
        }
        let via = resolvers.map(\.description).joined(separator: " → ")
        return "\(key): \(what) in \(durationNanoseconds / 1_000) µs" + (via.isEmpty ? "" : " (via \(via))")
    }
}

extension ResolutionEvent {
    /// An event of a resolve that was not timed: a value read ready, or a refusal.
    init(key: DependencyKey, resolvers: [DependencyKey], outcome: Outcome) {
        self.init(key: key, resolvers: resolvers, outcome: outcome, durationNanoseconds: 0)
    }
}
