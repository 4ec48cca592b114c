import Injector
import Testing

struct UserSession: Equatable {
    let user: Int
    var token = ""
    var admin = false
    var label = ""
}

@Suite struct ArgumentTests {
    @Test(arguments: Face.allCases)
    func factoriesTakeOneTwoOrThreeArguments(face: Face) async throws {
        let injector = face.makeInjector()
        await injector.register("svc", name: "label")
        await injector.register(UserSession.self) { (user: Int) in UserSession(user: user) }
        await injector.register(UserSession.self, name: "two") { (user: Int, token: String) in
            UserSession(user: user, token: token)
        }
        await injector.register(UserSession.self, name: "three", resolving: String.self, named: "label") {
            (label, user: Int, token: String, admin: Bool) in
            UserSession(user: user, token: token, admin: admin, label: label)
        }

        #expect(try await injector.resolve(UserSession.self, arguments: 1) == UserSession(user: 1))
        #expect(
            try await injector.resolve(UserSession.self, name: "two", arguments: 2, "t")
                == UserSession(user: 2, token: "t"))
        #expect(
            try await injector.resolve(UserSession.self, name: "three", arguments: 3, "t", true)
                == UserSession(user: 3, token: "t", admin: true, label: "svc")
        )
    }

    /// A resolve with arguments of an unregistered key advises a registration whose factory
    /// takes them. (Catches: it advised `{ r in … }`, which the resolve then refused.)
    @Test(arguments: Face.allCases)
    func aMissingRegistrationResolvedWithArgumentsIsAdvisedToTakeThem(face: Face) async {
        let injector = face.makeInjector()
        let error = await #expect(throws: InjectionError.self) {
            try await injector.resolve(UserSession.self, arguments: 1, "t")
        }
        guard case .notRegistered(_, _, let suggestions) = error else {
            Issue.record("expected notRegistered, got \(String(describing: error))")
            return
        }
        #expect(suggestions.last == .registerTakingArguments(["Swift.Int", "Swift.String"]))
        #expect(
            error?.description.hasSuffix(
                "`injector.register(InjectorTests.UserSession.self) { (r, argument1: Swift.Int, argument2: Swift.String) in … }`."
            ) == true)
    }

    @Test(arguments: Face.allCases)
    func wrongArgumentTypesAreATypedErrorNamingBothLists(face: Face) async {
        let injector = face.makeInjector()
        await injector.register(UserSession.self) { (user: Int, token: String) in
            UserSession(user: user, token: token)
        }

        let error = await #expect(throws: InjectionError.self) {
            try await injector.resolve(UserSession.self, arguments: "1", 2)
        }
        guard case .argumentMismatch(let key, _, let expected, let given) = error else {
            Issue.record("expected argumentMismatch, got \(String(describing: error))")
            return
        }
        #expect(key == DependencyKey(UserSession.self))
        #expect(expected == ["Swift.Int", "Swift.String"])
        #expect(given == ["Swift.String", "Swift.Int"])
        #expect(
            error?.description == """
                Injector could not resolve InjectorTests.UserSession: its factory takes arguments \
                (Swift.Int, Swift.String), but the resolve passed (Swift.String, Swift.Int).
                To fix: pass arguments of exactly those types, in that order: \
                `resolve(InjectorTests.UserSession.self, arguments: …)`.
                """
        )
    }

    @Test(arguments: Face.allCases)
    func resolvingWithoutArgumentsOrPassingArgumentsToAPlainFactoryIsAMismatch(face: Face) async {
        let injector = face.makeInjector()
        await injector.register(UserSession.self) { (user: Int) in UserSession(user: user) }
        await injector.register(Service.self) { Service() }

        let missingArguments = await injector.resolveError(UserSession.self)
        guard case .argumentMismatch(_, [DependencyKey(UserSession.self)], ["Swift.Int"], []) = missingArguments else {
            Issue.record("expected argumentMismatch, got \(String(describing: missingArguments))")
            return
        }
        let extraArguments = await #expect(throws: InjectionError.self) {
            try await injector.resolve(Service.self, arguments: 1)
        }
        guard case .argumentMismatch(_, _, [], ["Swift.Int"]) = extraArguments else {
            Issue.record("expected argumentMismatch, got \(String(describing: extraArguments))")
            return
        }
        #expect(
            extraArguments?.description == """
                Injector could not resolve InjectorTests.Service: its factory takes no arguments, \
                but the resolve passed (Swift.Int).
                To fix: resolve it without arguments, `resolve(InjectorTests.Service.self)`.
                """
        )
    }

    @Test(arguments: Face.allCases)
    func aFactoryThatResolvesItWithoutArgumentsGetsTheMismatchWithItsPath(face: Face) async {
        let injector = face.makeInjector()
        await injector.register(UserSession.self) { (user: Int) in UserSession(user: user) }
        await injector.register(Box<UserSession>.self, resolving: UserSession.self) { Box(value: $0) }

        let error = await injector.resolveError(Box<UserSession>.self)
        guard case .argumentMismatch(let key, let path, ["Swift.Int"], []) = error else {
            Issue.record("expected argumentMismatch, got \(String(describing: error))")
            return
        }
        #expect(key == DependencyKey(UserSession.self))
        #expect(path == [DependencyKey(Box<UserSession>.self), DependencyKey(UserSession.self)])
    }

    @Test(arguments: Face.allCases)
    func aMissingArgumentRegistrationIsNotRegistered(face: Face) async {
        let injector = face.makeInjector()
        let error = await #expect(throws: InjectionError.self) {
            try await injector.resolve(UserSession.self, arguments: 1)
        }
        guard case .notRegistered(DependencyKey(UserSession.self), _, _) = error else {
            Issue.record("expected notRegistered, got \(String(describing: error))")
            return
        }
    }

    @Test(arguments: Face.allCases)
    func aChildResolvesItsParentsArgumentFactoryWithItsOwnOverrides(face: Face) async throws {
        let parent = face.makeInjector()
        await parent.register("parent", name: "label")
        await parent.register(UserSession.self, resolving: String.self, named: "label") { (label, user: Int) in
            UserSession(user: user, label: label)
        }
        let child = parent.child()
        await child.register("child", name: "label")

        #expect(try await child.resolve(UserSession.self, arguments: 1).label == "child")
        #expect(try await parent.resolve(UserSession.self, arguments: 1).label == "parent")
    }
}
