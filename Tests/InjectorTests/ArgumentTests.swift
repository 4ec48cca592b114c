import Injector
import Testing

struct UserSession: Equatable {
    let user: Int
    var token = ""
    var admin = false
    var label = ""
}

@Suite struct ArgumentTests {
    @Test func factoriesTakeOneTwoOrThreeArguments() throws {
        let injector = DependencyInjector()
        injector.register("svc", name: "label")
        injector.register(UserSession.self) { (_, user: Int) in UserSession(user: user) }
        injector.register(UserSession.self, name: "two") { (_, user: Int, token: String) in
            UserSession(user: user, token: token)
        }
        injector.register(UserSession.self, name: "three") { (r, user: Int, token: String, admin: Bool) in
            UserSession(user: user, token: token, admin: admin, label: try r.resolve(name: "label"))
        }

        #expect(try injector.resolve(UserSession.self, arguments: 1) == UserSession(user: 1))
        #expect(
            try injector.resolve(UserSession.self, name: "two", arguments: 2, "t") == UserSession(user: 2, token: "t"))
        #expect(
            try injector.resolve(UserSession.self, name: "three", arguments: 3, "t", true)
                == UserSession(user: 3, token: "t", admin: true, label: "svc")
        )
    }

    @Test func wrongArgumentTypesAreATypedErrorNamingBothLists() {
        let injector = DependencyInjector()
        injector.register(UserSession.self) { (_, user: Int, token: String) in UserSession(user: user, token: token) }

        let error = #expect(throws: InjectionError.self) { try injector.resolve(UserSession.self, arguments: "1", 2) }
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

    @Test func resolvingWithoutArgumentsOrPassingArgumentsToAPlainFactoryIsAMismatch() {
        let injector = DependencyInjector()
        injector.register(UserSession.self) { (_, user: Int) in UserSession(user: user) }
        injector.register(Service.self) { _ in Service() }

        let missingArguments = #expect(throws: InjectionError.self) { try injector.resolve(UserSession.self) }
        guard case .argumentMismatch(_, _, ["Swift.Int"], []) = missingArguments else {
            Issue.record("expected argumentMismatch, got \(String(describing: missingArguments))")
            return
        }
        let extraArguments = #expect(throws: InjectionError.self) { try injector.resolve(Service.self, arguments: 1) }
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

    @Test func aMissingArgumentRegistrationIsNotRegistered() {
        let injector = DependencyInjector()
        #expect(throws: InjectionError.self) { try injector.resolve(UserSession.self, arguments: 1) }
    }
}
