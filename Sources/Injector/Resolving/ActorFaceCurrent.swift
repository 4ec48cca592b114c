/// While the actor face runs a factory, its registry (`core`) is `DependencyInjector.current`,
/// so the wrappers of what the factory builds resolve from that face; what its registry cannot
/// answer, they resolve from the `DependencyInjector.current` bound outside (`outside`), as
/// they did before: an app that keeps some services in a `DependencyInjector` and builds
/// objects with the actor reaches both.
struct ActorFaceCurrent: Sendable {
    let core: DependencyInjector
    let outside: DependencyInjector

    /// The actor face's factory running in this task, if any.
    @TaskLocal static var running: ActorFaceCurrent?
}

extension DependencyInjector {
    /// The injector bound outside the actor face's factory now running, when this injector is
    /// that face's registry (and not the same injector): where a miss here goes next.
    var outsideActorFace: DependencyInjector? {
        guard let running = ActorFaceCurrent.running, running.core === self, running.outside !== self else {
            return nil
        }
        return running.outside
    }
}
