/// While the actor face runs a factory, its registry (`core`) is `DependencyInjector.current`,
/// so the wrappers of what the factory builds resolve from that face; what its registry cannot
/// answer, they resolve from the `DependencyInjector.current` bound outside (`outside`), as
/// they did before: an app that keeps some services in a `DependencyInjector` and builds
/// objects with the actor reaches both.
struct ActorFaceCurrent: Sendable {
    let core: DependencyInjector
    let outside: DependencyInjector

    /// The actor face's factory running in this task, if any: bound with the run's frames.
    static var running: ActorFaceCurrent? { AsyncResolutionContext.bound.face }

    /// Runs `body` with `face` as the actor face's factory running (`nil`: none), the frames
    /// bound as they are.
    static func binding<Result>(_ face: ActorFaceCurrent?, _ body: () throws -> Result) rethrows -> Result {
        var bound = AsyncResolutionContext.bound
        bound.face = face
        return try AsyncResolutionContext.$bound.withValue(bound, operation: body)
    }
}

extension DependencyInjector {
    /// The injector bound outside the actor face's factory now running, when this injector is
    /// that face's registry (and not the same injector): where a miss here goes next.
    var outsideActorFace: DependencyInjector? {
        guard let running = ActorFaceCurrent.running, running.core === self else { return nil }
        // Not this injector, nor one below it (a request's, a child's): what they hold is no
        // fallback for what this face makes and may keep.
        for injector in sequence(first: running.outside, next: \.parent) where injector === self { return nil }
        return running.outside
    }

    /// `optionalResult(_:name:)` where this injector has nothing for `T`: in what the actor
    /// face's factory builds, what the injector bound outside it has; `nil` otherwise.
    func optionalResultOutsideActorFace<T>(_ type: T.Type, name: String?) -> Result<T?, InjectionError> {
        guard AsyncWrapperCapture.mayRun, let outside = outsideActorFace else { return .success(nil) }
        return outside.optionalResult(type, name: name)
    }

    /// The injector a wrapper created now resolves `T` (under `name`) from, later too: this
    /// one, or, while the actor face is `current` (its factory's run, its `withScope`), the
    /// injector bound outside it when this one (the face's registry) has nothing for it.
    func wrapperInjector<T>(for type: T.Type, name: String?) -> DependencyInjector {
        guard AsyncWrapperCapture.mayRun, let outside = outsideActorFace, !isRegistered(T.self, name: name),
            outside.isRegistered(T.self, name: name)
        else { return self }
        return outside
    }
}
