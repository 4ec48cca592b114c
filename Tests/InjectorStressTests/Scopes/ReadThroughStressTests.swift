import Injector
import Synchronization
import TestSupport
import Testing

/// A resolve through a request's scope of a key the scope holds nothing of reads the app's
/// published table directly, passing the scope by without its lock. These tests race that
/// pass-by against the scope's own writes: what it returns must be what the walk would.
@Suite struct ReadThroughStressTests {
    private static let rounds = 400
    private static let readsPerRound = 300

    /// A user relies on an override registered in a scope while other threads resolve through
    /// it being seen by every resolve that starts after `register` returns, and on each
    /// resolve returning either the app's value or the override, never flipping back once
    /// the override was seen. (Catches: a pass-by that misses a type registered in the scope,
    /// or that sees a registration only part of the time.)
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)  // `Atomic`
    @Test func anOverrideRegisteredInAScopeWhileOthersReadThroughItIsSeenFromThenOn() {
        let ledger = Ledger()
        let app = DependencyInjector()
        app.register(Tracked(id: 0, ledger: ledger))
        let findings = Findings()

        for round in 0..<Self.rounds {
            let request = app.openScope()
            let registered = Flag()
            // Half the rounds override a singleton not yet made (a slot the scope's table does
            // not publish), half an instance (one it does).
            let overridesWithFactory = round.isMultiple(of: 2)
            runOnThreads(3) { [unowned request] thread in
                guard thread > 0 else {
                    if overridesWithFactory {
                        request.register(Tracked.self, scope: .singleton) { _ in Tracked(id: 1, ledger: ledger) }
                    } else {
                        request.register(Tracked(id: 1, ledger: ledger))
                    }
                    registered.raise()
                    return
                }
                var reader = Reader(valid: 0...1)
                for _ in 0..<Self.readsPerRound {
                    let settled = registered.isRaised
                    reader.check(last: settled ? 1 : nil) { try request.resolve(Tracked.self) }
                }
                findings.add(reader)
            }
            #expect((try? request.resolve(Tracked.self))?.id == 1)
            try? request.close()
        }

        #expect(findings.problems.isEmpty, "\(findings.problems.prefix(5))")
        #expect(findings.reads == Self.rounds * 2 * Self.readsPerRound)
    }

    /// A user relies on a transient of the app resolved through a scope being built by the
    /// scope, so that what the scope provides reaches it, also when the scope passes the
    /// transient's key by. (Catches: a pass-by that builds the app's transient with the app.)
    @Test func anAppTransientResolvedThroughAScopeIsBuiltWithTheScopesValues() throws {
        let app = DependencyInjector()
        app.register(String.self, name: "who") { _ in "app" }
        app.register(Greeting.self) { r in try Greeting(who: r.resolve(String.self, name: "who")) }
        let request = app.openScope()
        request.register("request", as: String.self, name: "who")

        #expect(try request.resolve(Greeting.self).who == "request")
        #expect(try app.resolve(Greeting.self).who == "app")
    }

    private struct Greeting {
        let who: String
    }
}
