import Injector

// Opened scopes on either face: `openScope()`, `declareScoped`.

extension FaceInjector {
    func openScope() -> FaceInjector {
        switch base {
        case .sync(let injector): FaceInjector(.sync(injector.openScope()))
        case .async(let injector): FaceInjector(.async(injector.openScope()))
        }
    }

    /// Declares `type` as provided by each opened scope (the declaration's site is this line).
    func declareScoped<T: Sendable>(_ type: T.Type) async {
        switch base {
        case .sync(let injector): injector.declareScoped(type)
        case .async(let injector): await injector.declareScoped(type)
        }
    }
}
