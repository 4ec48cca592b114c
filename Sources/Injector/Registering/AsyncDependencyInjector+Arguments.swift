import Dispatch

extension AsyncDependencyInjector {
    /// The actor face's ``DependencyInjector/register(_:name:caching:teardown:fileID:line:factory:)``, its factory
    /// async and given the run's ``AsyncResolver``; `teardown` may await. With `caching`, a value is made in the task
    /// of its tuple's first resolve; another resolve awaits it, or makes it itself when that task is cancelled.
    public func register<T: Sendable, First: Sendable, each Rest: Sendable>(
        _ type: T.Type = T.self,
        name: String? = nil,
        caching: ArgumentCaching? = nil,
        teardown: (@Sendable (T) async throws -> Void)? = nil,
        fileID: StaticString = #fileID,
        line: UInt = #line,
        factory: @escaping @Sendable (AsyncResolver, First, repeat each Rest) async throws -> T
    ) {
        let key = DependencyKey(type, name: name)
        let close = teardown.map { close in Registration.Teardown.async(AsyncCastingTeardown(close: close, key: key)) }
        core.store(
            key: key,
            scope: .transient,
            factory: .taking(
                First.self, repeat (each Rest).self,
                make: .async { r, arguments in
                    let (first, rest) = try Registration.unpack(arguments, as: (First, (repeat each Rest)).self)
                    guard caching != nil else { return try await factory(r, first, repeat each rest) }
                    return try await r.cachedValue(
                        of: key, teardown: close, for: ArgumentCaching.tuple(first, repeat each rest)
                    ) { r in try await factory(r, first, repeat each rest) }
                }),
            caching: caching,
            fileID: fileID,
            line: line
        )
    }

    /// The actor face's ``DependencyInjector/resolve(_:name:arguments:_:)``; it awaits async factories.
    public nonisolated func resolve<T: Sendable, First, each Rest>(
        _ type: T.Type = T.self,
        name: String? = nil,
        arguments first: First,
        _ rest: repeat each Rest
    ) async throws(InjectionError) -> T {
        try await resolve(type, name: name, after: AsyncResolutionContext.frames, arguments: first, repeat each rest)
    }

    /// `resolve(_:name:arguments:_:)` after `frames` (an ``AsyncResolver``'s).
    nonisolated func resolve<T: Sendable, First, each Rest>(
        _ type: T.Type,
        name: String?,
        after frames: AsyncResolutionContext.Frames,
        arguments first: First,
        _ rest: repeat each Rest
    ) async throws(InjectionError) -> T {
        let key = DependencyKey(type, name: name)
        let observer = core.instrument(key, resolvedBy: frames.innermostKey)
        let start = observer == nil ? 0 : DispatchTime.now().uptimeNanoseconds
        var outcome = ResolutionEvent.Outcome.created
        defer {
            if let observer {
                core.notify(observer, of: key, resolvers: frames.keys, outcome: outcome, since: start)
            }
        }
        do throws(InjectionError) {
            while true {
                let registration = try core.registration(
                    of: key, as: T.self, taking: First.self, repeat (each Rest).self, path: frames.keys)
                let arguments = (first, (repeat each rest))
                guard case .withArguments(_, _, .sync) = registration.factory else {
                    guard observer != nil, registration.caching != nil else {
                        let value = try await runTransient(registration, after: frames, arguments: arguments)
                        return try DependencyInjector.cast(value, to: T.self, key: key)
                    }
                    // Told by the cache whether this resolve made the value (see `ObservedRequest`).
                    let request = ObservedRequest()
                    let value = try await request.observing { () async throws(InjectionError) -> any Sendable in
                        try await runTransient(registration, after: frames, arguments: arguments)
                    }
                    if !request.madeValue { outcome = .cached }
                    return try DependencyInjector.cast(value, to: T.self, key: key)
                }
                // Registered through `synchronous`: run by the core, as a synchronous factory without
                // arguments is (see `request`). Where another thread is making the tuple's value,
                // the core hands its end back: awaited here, then the key is looked up again.
                let context = ResolutionContext.current
                context.awaitsCreations = true
                let made: (value: Any, isCached: Bool)
                do throws(InjectionError) {
                    made = try core.runTakingArguments(registration, in: context, arguments: arguments)
                } catch {
                    let end = context.handedBack
                    context.endAwaitingCreations()
                    guard let end else { throw error.after(frames.keys) }
                    _ = try await end.value(waitingFrom: frames)
                    continue
                }
                context.endAwaitingCreations()
                if made.isCached { outcome = .cached }
                do throws(InjectionError) {
                    return try DependencyInjector.cast(made.value, to: T.self, key: key)
                } catch {
                    throw error.after(frames.keys)
                }
            }
        } catch {
            outcome = .failed(error)
            throw error
        }
    }
}
