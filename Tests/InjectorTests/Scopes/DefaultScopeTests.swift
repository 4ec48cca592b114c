import Injector
import Testing

struct SingletonsModule: FaceModule {
    var defaultScope: Scope? { .singleton }

    func register(in injector: DependencyInjector) {
        injector.register(Cart.self) { _ in Cart() }
        injector.register(Router.self, scope: .transient) { _ in Router() }
    }

    func register(in injector: AsyncDependencyInjector) async {
        await injector.register(Cart.self) { _ in Cart() }
        await injector.register(Router.self, scope: .transient) { _ in Router() }
    }
}

/// A module without a default scope of its own, installed by `SingletonsModule`.
struct InnerModule: FaceModule {
    func register(in injector: DependencyInjector) {
        injector.register(Service.self) { _ in Service() }
    }

    func register(in injector: AsyncDependencyInjector) async {
        await injector.register(Service.self) { _ in Service() }
    }
}

struct OuterModule: FaceModule {
    var defaultScope: Scope? { .singleton }

    func register(in injector: DependencyInjector) throws(InjectionError) {
        try injector.install(InnerModule())
    }

    func register(in injector: AsyncDependencyInjector) async throws(InjectionError) {
        try await injector.install(InnerModule())
    }
}

/// A default scope for an injector (and its children), or for one module.
@Suite struct DefaultScopeTests {
    @Test(arguments: Face.allCases)
    func anInjectorsDefaultScopeAppliesWhereARegistrationNamesNone(face: Face) async throws {
        let injector =
            switch face {
            case .sync: FaceInjector(.sync(DependencyInjector(defaultScope: .singleton)))
            case .async: FaceInjector(.async(AsyncDependencyInjector(defaultScope: .singleton)))
            }
        await injector.register(Cart.self) { Cart() }
        await injector.register(Router.self, scope: .transient) { Router() }
        let child = injector.child()
        await child.register(Interactor.self, resolving: Router.self) { Interactor(router: $0) }

        #expect(try await injector.resolve(Cart.self) === injector.resolve(Cart.self))
        #expect(try await injector.resolve(Router.self) !== injector.resolve(Router.self))
        #expect(try await child.resolve(Interactor.self) === child.resolve(Interactor.self))  // the child's default too
        #expect(DependencyInjector().defaultScope == .transient)
    }

    @Test(arguments: Face.allCases)
    func aModulesDefaultScopeAppliesToItsOwnRegistrations(face: Face) async throws {
        let injector = face.makeInjector()
        try await injector.install(SingletonsModule())
        await injector.register(Interactor.self, resolving: Router.self) { Interactor(router: $0) }

        #expect(try await injector.resolve(Cart.self) === injector.resolve(Cart.self))
        #expect(try await injector.resolve(Router.self) !== injector.resolve(Router.self))
        #expect(try await injector.resolve(Interactor.self) !== injector.resolve(Interactor.self))  // outside it
    }

    @Test(arguments: Face.allCases)
    func aModuleInstalledByAnotherTakesTheOuterDefaultScope(face: Face) async throws {
        let injector = face.makeInjector()
        try await injector.install(OuterModule())

        #expect(try await injector.resolve(Service.self) === injector.resolve(Service.self))
    }
}
