import Injector
import TestSupport
import Testing

// A `.graph` registration replaced in the middle of resolves, while others resolve it.

/// A value that says which registration made it: a `.graph` one or a "victim" singleton,
/// numbered.
private final class Made: Sendable {
    enum Kind { case graph, victim }

    let kind: Kind
    let registration: Int

    init(_ kind: Kind, by registration: Int) {
        self.kind = kind
        self.registration = registration
    }
}

/// Two resolves of the `.graph` `Made` in one resolve.
private final class Pair: Sendable {
    let first: Made
    let second: Made

    init(_ first: Made, _ second: Made) {
        self.first = first
        self.second = second
    }
}

/// How many times each role repeats its step: dancers re-register, resolvers resolve.
private let dances = 300
private let resolves = 1_000

/// Records what is wrong with what one resolve was handed.
private struct Checks {
    let wrong = Collected<String>()

    /// A dancer's resolve of the `.graph` value, then of the victim it just registered as
    /// `expected`.
    func dance(graph: Made, victim: Made, expected: Int) {
        if graph.kind != .graph { wrong.append("the graph value came from victim \(graph.registration)") }
        if victim.kind != .victim || victim.registration != expected {
            wrong.append("victim \(expected) was handed \(victim.kind) \(victim.registration)")
        }
    }

    /// A resolver's two resolves of the `.graph` value: both graph values, and one value when
    /// the same registration made both (another may have replaced it in between).
    func pair(_ pair: Pair) {
        for made in [pair.first, pair.second] where made.kind != .graph {
            wrong.append("a graph resolve was handed victim \(made.registration)")
        }
        if pair.first.registration == pair.second.registration, pair.first !== pair.second {
            wrong.append("graph registration \(pair.first.registration) made two values in one resolve")
        }
    }

    func failed(_ error: any Error) {
        wrong.append("\(error)")
    }
}

/// Graph values are shared by their registration's identity. Dancers resolve the graph value,
/// re-register its key (which may free the registration that made it), register a singleton
/// "victim" and resolve it, in one resolve; resolvers resolve the graph value meanwhile.
/// A registration must never be handed a value another one made (a new registration may be
/// allocated where a freed one was).
@Suite struct GraphScopeStressTests {
    @Test func reRegisteringAGraphKeyMidResolveNeverHandsItsValueToAnotherRegistration() {
        let injector = DependencyInjector()
        let numbers = Counter()
        let checks = Checks()
        injector.register(Made.self, scope: .graph) { _ in Made(.graph, by: 0) }
        injector.register(Pair.self) { r in try Pair(r.resolve(), r.resolve()) }
        for dancer in 0..<2 {
            injector.register(Made.self, name: "dance \(dancer)") { r in
                let graph = try r.resolve(Made.self)
                let replacement = numbers.increment()
                r.register(Made.self, scope: .graph) { _ in Made(.graph, by: replacement) }
                let expected = numbers.increment()
                r.register(Made.self, name: "victim \(dancer)", scope: .singleton) { _ in
                    Made(.victim, by: expected)
                }
                let victim = try r.resolve(Made.self, name: "victim \(dancer)")
                checks.dance(graph: graph, victim: victim, expected: expected)
                return victim
            }
        }
        runOnThreads(4) { thread in
            do {
                if thread < 2 {
                    for _ in 0..<dances { _ = try injector.resolve(Made.self, name: "dance \(thread)") }
                } else {
                    for _ in 0..<resolves { checks.pair(try injector.resolve(Pair.self)) }
                }
            } catch {
                checks.failed(error)
            }
        }
        #expect(checks.wrong.values.isEmpty, "\(checks.wrong.values.prefix(5))")
    }

    @Test func theActorFaceNeverHandsAGraphValueToAnotherRegistration() async {
        let injector = AsyncDependencyInjector()
        let numbers = Counter()
        let checks = Checks()
        await injector.register(Made.self, scope: .graph) { _ in Made(.graph, by: 0) }
        await injector.register(Pair.self) { r in try await Pair(r.resolve(), r.resolve()) }
        for dancer in 0..<2 {
            await injector.register(Made.self, name: "dance \(dancer)") { r in
                let graph = try await r.resolve(Made.self)
                let replacement = numbers.increment()
                await r.injector.register(Made.self, scope: .graph) { _ in Made(.graph, by: replacement) }
                let expected = numbers.increment()
                await r.injector.register(Made.self, name: "victim \(dancer)", scope: .singleton) { _ in
                    Made(.victim, by: expected)
                }
                let victim = try await r.resolve(Made.self, name: "victim \(dancer)")
                checks.dance(graph: graph, victim: victim, expected: expected)
                return victim
            }
        }
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<4 {
                group.addTask {
                    do {
                        if task < 2 {
                            for _ in 0..<dances { _ = try await injector.resolve(Made.self, name: "dance \(task)") }
                        } else {
                            for _ in 0..<resolves { checks.pair(try await injector.resolve(Pair.self)) }
                        }
                    } catch {
                        checks.failed(error)
                    }
                }
            }
        }
        #expect(checks.wrong.values.isEmpty, "\(checks.wrong.values.prefix(5))")
    }
}
