import Injector
import Testing

protocol ScaleReporting: Sendable {}
struct ScaleReporter: ScaleReporting {}
struct ScaleDashboard {}

/// Suggestions, `registrations` and `verify()` among many registrations: what they list, and
/// that they cut a long list short. (What they cost is measured by `InjectorBenchmarks`.)
@Suite struct DiagnosticsScaleTests {
    /// 100,000 registrations: `String` named `setting-0` … `setting-99997` (every tenth a
    /// factory, the rest instances), a `ScaleReporter` registered as its concrete type, and a
    /// `ScaleDashboard` whose factory needs `any ScaleReporting`, which is not registered.
    private static func largeInjector(_ face: Face) async -> FaceInjector {
        let injector = face.makeInjector()
        for index in 0..<99_998 {
            if index.isMultiple(of: 10) {
                await injector.register(String.self, name: "setting-\(index)") { "made" }
            } else {
                await injector.register("value", name: "setting-\(index)")
            }
        }
        await injector.register(ScaleReporter())
        await injector.register(ScaleDashboard.self, resolving: (any ScaleReporting).self) { _ in ScaleDashboard() }
        return injector
    }

    @Test(arguments: Face.allCases)
    func amongOneHundredThousandRegistrationsAMissListsAHandfulClosestFirst(_ face: Face) async throws {
        let injector = await Self.largeInjector(face)

        // An unknown name: the five closest of the type's names, and a count of the others.
        let unknownName = await injector.resolveError(String.self, name: "setting-5000x")
        #expect(
            unknownName.map(Self.suggestions) == [
                .otherNames(
                    ["setting-5000", "setting-50000", "setting-50001", "setting-50002", "setting-50003"],
                    unlisted: 99_993)
            ])
        #expect(
            unknownName?.description == """
                Injector could not resolve Swift.String named "setting-5000x": nothing is registered for it.
                Suggestion: The same type is registered under other names: "setting-5000", "setting-50000", \
                "setting-50001", "setting-50002", "setting-50003", and 99993 more.
                To fix: resolve it with the name "setting-5000", which is registered (a typo?), \
                or register Swift.String named "setting-5000x" before resolving it, \
                e.g. `injector.register(Swift.String.self, name: "setting-5000x") { r in … }`.
                """
        )

        // A protocol: the one registered value that conforms, not the 99,998 strings.
        let protocolMiss = await injector.resolveError((any ScaleReporting).self)
        #expect(protocolMiss.map(Self.suggestions) == [.conformingRegistration(DependencyKey(ScaleReporter.self))])

        // Nothing like it: no suggestion at all.
        let unrelated = await injector.resolveError(Double.self)
        #expect(unrelated.map(Self.suggestions) == [])

        // Every key once, in the order of their descriptions: InjectorTests.ScaleDashboard,
        // InjectorTests.ScaleReporter, then the strings by name.
        let registrations = await injector.registrations
        #expect(registrations.count == 100_000)
        #expect(
            registrations.prefix(2).map(\.key) == [
                DependencyKey(ScaleDashboard.self), DependencyKey(ScaleReporter.self),
            ])
        let names = registrations.dropFirst(2).map { $0.key.name ?? "" }
        #expect(zip(names, names.dropFirst()).allSatisfy { $0 < $1 })

        // The one broken registration, with the suggestion.
        let verification = await injector.verificationError()
        #expect(verification?.registrationCount == 100_000)
        #expect(verification?.failures.count == 1)
        guard case .notRegistered(let key, let path, let suggestions) = verification?.failures.first else {
            Issue.record("expected one notRegistered, got \(String(describing: verification))")
            return
        }
        #expect(key == DependencyKey((any ScaleReporting).self))
        #expect(path == [DependencyKey(ScaleDashboard.self), key])
        #expect(suggestions == [.conformingRegistration(DependencyKey(ScaleReporter.self))])
    }

    @Test(arguments: Face.allCases)
    func aTypeWithFewNamesListsTheClosestFirst(_ face: Face) async {
        let injector = face.makeInjector()
        for name in ["port", "retries", "time", "timeout", "timeouts", "tiemout"] {
            await injector.register(1, name: name)
        }

        let error = await injector.resolveError(Int.self, name: "timout")
        // Distances 1 (a letter added; two swapped), 1, 2, 3, 4; "retries" (7) is counted.
        #expect(
            error.map(Self.suggestions) == [
                .otherNames(["tiemout", "timeout", "timeouts", "time", "port"], unlisted: 1)
            ])
    }

    @Test(arguments: Face.allCases)
    func aNameFarFromEveryOneOfManyIsCountedNotListed(_ face: Face) async {
        let injector = face.makeInjector()
        for index in 0...1_000 { await injector.register(index, name: "port-\(index)") }

        let error = await injector.resolveError(Int.self, name: "timeout")
        #expect(error.map(Self.suggestions) == [.otherNames([], unlisted: 1_001)])
        #expect(
            error?.description.split(separator: "\n")[1]
                == "Suggestion: The same type is registered under 1001 other names, none of them close to this one.")
    }

    @Test(arguments: Face.allCases)
    func moreThanFiveRegistrationsThatConformAreCountedNotListed(_ face: Face) async {
        let injector = face.makeInjector()
        for index in 0..<7 { await injector.register(ScaleReporter(), name: "reporter-\(index)") }

        let error = await injector.resolveError((any ScaleReporting).self, name: "reporter-6")
        // The one under the requested name first, then in key order.
        let listed = ["reporter-6", "reporter-0", "reporter-1", "reporter-2", "reporter-3"]
        #expect(
            error.map(Self.suggestions)
                == listed.map { .conformingRegistration(DependencyKey(ScaleReporter.self, name: $0)) }
                + [.unlistedRegistrations(2)])
        #expect(
            error?.description.split(separator: "\n").last(where: { $0.hasPrefix("Suggestion:") })
                == "Suggestion: 2 more registrations like the ones above are not listed.")
    }

    @Test func aChildCountsANameItSharesWithItsParentOnce() {
        let parent = DependencyInjector()
        for index in 0..<3 { parent.register(index, name: "worker-\(index)") }
        let child = parent.child()
        child.register(10, name: "worker-0")
        child.register(11, name: "worker-9")

        let error = #expect(throws: InjectionError.self) { try child.resolve(Int.self, name: "worker-") }
        #expect(
            error.map(Self.suggestions) == [.otherNames(["worker-0", "worker-1", "worker-2", "worker-9"])])
    }

    /// Among more than 1,000 names, a miss looks up only the edits whose characters some name
    /// of the type has, in the injector asked or an ancestor: a child's miss finds a name one
    /// letter away whose letter only its parent's names have. (Catches: the characters of the
    /// injector asked standing for its ancestors'.)
    @Test func amongManyNamesAnEditWithALetterOnlyAParentsNameHasIsFound() {
        let parent = DependencyInjector()
        for index in 0...1_000 { parent.register(index, name: "port-\(index)") }
        parent.register(7, name: "zeta-7")
        let child = parent.child()
        child.register(8, name: "child-only")

        let error = #expect(throws: InjectionError.self) { try child.resolve(Int.self, name: "zetb-7") }
        #expect(error.map(Self.suggestions) == [.otherNames(["zeta-7"], unlisted: 1_002)])
    }

    /// Among more than 1,000 names that have no printable character, a miss still finds the
    /// name one character shorter: with nothing to add or put in, a character is still taken
    /// out. (Catches: edits that stop when no character may be added.)
    @Test func amongManyNamesWithNoPrintableCharacterARemovalIsFound() {
        let injector = DependencyInjector()
        let controls = (1...31).map { Character(Unicode.Scalar(UInt8($0))) }
        let names = controls.flatMap { a in controls.flatMap { b in controls.map { c in String([a, b, c]) } } }
        for name in names.prefix(1_001) { injector.register(1, name: name) }
        let registered = names[500]

        let error = #expect(throws: InjectionError.self) {
            try injector.resolve(Int.self, name: registered + "\u{1}")
        }
        guard case .otherNames(let listed, _)? = error.map(Self.suggestions)?.first else {
            Issue.record("expected other names, got \(String(describing: error))")
            return
        }
        #expect(listed.contains(registered))
    }

    private static func suggestions(of error: InjectionError) -> [Suggestion] {
        guard case .notRegistered(_, _, let suggestions) = error else { return [] }
        return suggestions
    }
}
