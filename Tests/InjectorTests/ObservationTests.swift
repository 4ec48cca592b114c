import Injector
import Testing

@Suite struct ObservationTests {
    /// `Service: created via Dependent → Service`, a compact, timing-free form of an event.
    private static func summary(_ event: ResolutionEvent) -> String {
        let outcome: String
        switch event.outcome {
        case .cached: outcome = "cached"
        case .created: outcome = "created"
        case .failed(let error): outcome = "failed \(error.key.map { "\($0)" } ?? "")"
        case .refused: outcome = "refused"
        }
        let path = event.path.map { String(describing: $0.type) }.joined(separator: " → ")
        return "\(String(describing: event.key.type)): \(outcome) via \(path)"
    }

    @Test func theObserverSeesEveryResolveInOrder() {
        let injector = DependencyInjector()
        injector.register(Service.self, scope: .singleton) { _ in Service() }
        injector.register(Dependent.self) { r in try Dependent(service: r.resolve()) }
        injector.register(1)
        let events = Collected<ResolutionEvent>()
        injector.observe { events.append($0) }

        _ = try? injector.resolve(Dependent.self)
        _ = try? injector.resolve(Dependent.self)
        _ = try? injector.resolve(Int.self)
        _ = try? injector.resolve(String.self)

        #expect(
            events.values.map(Self.summary) == [
                "Service: created via Dependent → Service",
                "Dependent: created via Dependent",
                "Service: cached via Dependent → Service",
                "Dependent: created via Dependent",
                "Int: cached via Int",
                "String: failed Swift.String via String",
            ]
        )
        #expect(events.values.map(\.isCacheHit) == [false, false, true, false, true, false])
        #expect(events.values.last?.error?.key == DependencyKey(String.self))
    }

    @Test func anEventDescribesItselfOnOneLine() throws {
        let injector = DependencyInjector()
        injector.register(NodeA.self) { r in
            _ = try r.resolve(NodeB.self)
            return NodeA()
        }
        let events = Collected<ResolutionEvent>()
        injector.observe { events.append($0) }
        #expect(throws: InjectionError.self) { try injector.resolve(NodeA.self) }

        let lines = events.values.map { event in
            // The time varies: replace the number of microseconds.
            event.description.replacingOccurrences(
                of: #" in \d+ µs"#, with: " in … µs", options: .regularExpression)
        }
        #expect(
            lines == [
                "InjectorTests.NodeB: failed (Injector could not resolve InjectorTests.NodeB: nothing is registered "
                    + "for it.) in … µs (via InjectorTests.NodeA)",
                "InjectorTests.NodeA: failed (Injector could not resolve InjectorTests.NodeB: nothing is registered "
                    + "for it.) in … µs",
            ]
        )
    }

    @Test func childrenCreatedAfterObserveInheritTheObserverAndCanStop() throws {
        let parent = DependencyInjector()
        parent.register(1)
        let before = parent.child()
        let events = Collected<String>()
        parent.observe { events.append("\($0.key)") }
        let after = parent.child()

        _ = try before.resolve(Int.self)
        #expect(events.values.isEmpty)
        _ = try after.resolve(Int.self)
        #expect(events.values == ["Swift.Int"])

        after.stopObserving()
        _ = try after.resolve(Int.self)
        #expect(events.values == ["Swift.Int"])
        _ = try parent.resolve(Int.self)
        #expect(events.values == ["Swift.Int", "Swift.Int"])

        parent.stopObserving()
        _ = try parent.resolve(Int.self)
        #expect(events.values.count == 2)
    }

    @Test func resolvesMadeByTheObserverItselfAreNotReported() throws {
        let injector = DependencyInjector()
        injector.register(1)
        let events = Collected<String>()
        injector.observe { [weak injector] event in
            _ = try? injector?.resolve(Int.self)  // would recurse forever if it were reported
            events.append("\(event.key)")
        }

        _ = try injector.resolve(Int.self)
        #expect(events.values == ["Swift.Int"])
    }

    @Test func theObserverIsCalledSafelyFromManyThreadsAndInOrderOnEach() {
        let threads = 8
        let perThread = 200
        let injector = DependencyInjector()
        for thread in 0..<threads {
            for step in 0..<perThread {
                injector.register(Int.self, name: "\(thread)-\(step)") { _ in step }
            }
        }
        let events = Collected<String>()
        injector.observe { events.append($0.key.name ?? "") }

        runOnThreads(threads) { thread in
            for step in 0..<perThread { _ = try? injector.resolve(Int.self, name: "\(thread)-\(step)") }
        }

        let names = events.values
        #expect(names.count == threads * perThread)
        for thread in 0..<threads {
            let seen = names.filter { $0.hasPrefix("\(thread)-") }
            #expect(seen == (0..<perThread).map { "\(thread)-\($0)" })
        }
    }
}
