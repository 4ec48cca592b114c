import Injector
import Testing

// Scoping on either face: `child(singletons:)`, `withOverrides` and the face's `current`.

extension Face {
    /// This face's `current` injector.
    var currentInjector: FaceInjector {
        switch self {
        case .sync: FaceInjector(.sync(DependencyInjector.current))
        case .async: FaceInjector(.async(AsyncDependencyInjector.current))
        }
    }
}

extension FaceInjector {
    func child(singletons: ChildSingletons) -> FaceInjector {
        switch base {
        case .sync(let injector): FaceInjector(.sync(injector.child(singletons: singletons)))
        case .async(let injector): FaceInjector(.async(injector.child(singletons: singletons)))
        }
    }

    var parent: FaceInjector? {
        switch base {
        case .sync(let injector): injector.parent.map { FaceInjector(.sync($0)) }
        case .async(let injector): injector.parent.map { FaceInjector(.async($0)) }
        }
    }

    /// Whether both are the same injector.
    func isIdentical(to other: FaceInjector?) -> Bool {
        switch (base, other?.base) {
        case (.sync(let lhs), .sync(let rhs)): lhs === rhs
        case (.async(let lhs), .async(let rhs)): lhs === rhs
        default: false
        }
    }

    /// The face's `withOverrides`, with `overrides` configuring the scope through this
    /// (async) API.
    ///
    /// The sync face's `overrides` closure cannot await, so there `overrides` runs first thing
    /// inside the scope, on the scope that `withOverrides` made and bound.
    func withOverrides<Result>(
        _ overrides: (FaceInjector) async -> Void,
        operation: () async throws -> Result
    ) async rethrows -> Result {
        switch base {
        case .sync(let injector):
            try await injector.withOverrides({ _ in }) {
                await overrides(FaceInjector(.sync(DependencyInjector.current)))
                return try await operation()
            }
        case .async(let injector):
            try await injector.withOverrides({ await overrides(FaceInjector(.async($0))) }, operation: operation)
        }
    }
}

/// Whether `isReleased` becomes true within a second: a value an async creation produced may
/// be released a moment after the resolves that awaited it returned.
func released(_ isReleased: () -> Bool) async -> Bool {
    for _ in 0..<1_000 where !isReleased() {
        try? await Task.sleep(nanoseconds: 1_000_000)
    }
    return isReleased()
}
