import Injector
import Testing

/// Random sequences of register / unregister / resolve / child operations, checked against a
/// model (a dictionary per injector with parent links). Seeded and reproducible: a failure
/// names its seed.
@Suite struct FuzzTests {
    /// The model of one injector: its own values by name, and its parent.
    private struct ModelInjector {
        var values: [String: Int] = [:]
        var parent: Int?
    }

    private enum Operation: CaseIterable {
        case registerValue, registerSingleton, registerTransient, unregister, resolve, makeChild
    }

    @Test(arguments: 0..<40)
    func randomSequencesMatchTheModel(batch: Int) {
        for sequence in 0..<100 {
            let seed = UInt64(batch * 100 + sequence)
            if let failure = run(seed: seed, operations: 60) {
                Issue.record("fuzz seed \(seed): \(failure)")
                return
            }
        }
    }

    /// Runs one sequence; returns a description of the first divergence, or `nil`.
    private func run(seed: UInt64, operations: Int) -> String? {
        var random = SeededGenerator(seed: seed)
        var injectors = [DependencyInjector()]
        var model = [ModelInjector()]
        let names = ["a", "b", "c", "d"]

        for step in 0..<operations {
            let index = Int.random(in: 0..<injectors.count, using: &random)
            let name = names.randomElement(using: &random) ?? "a"
            let value = Int.random(in: 0..<1_000, using: &random)
            let operation = Operation.allCases.randomElement(using: &random) ?? .resolve
            switch operation {
            case .registerValue:
                injectors[index].register(value, name: name)
                model[index].values[name] = value
            case .registerSingleton:
                injectors[index].register(Int.self, name: name, scope: .singleton) { _ in value }
                model[index].values[name] = value
            case .registerTransient:
                injectors[index].register(Int.self, name: name) { _ in value }
                model[index].values[name] = value
            case .unregister:
                injectors[index].unregister(Int.self, name: name)
                model[index].values[name] = nil
            case .makeChild:
                injectors.append(injectors[index].child())
                model.append(ModelInjector(parent: index))
            case .resolve:
                let expected = modelValue(name, from: index, in: model)
                let actual = try? injectors[index].resolve(Int.self, name: name)
                if actual != expected {
                    return
                        "step \(step): resolve \"\(name)\" from injector \(index) gave \(String(describing: actual)), "
                        + "the model says \(String(describing: expected))"
                }
                if injectors[index].isRegistered(Int.self, name: name) != (expected != nil) {
                    return "step \(step): isRegistered \"\(name)\" from injector \(index) disagrees with the model"
                }
            }
        }
        return nil
    }

    private func modelValue(_ name: String, from index: Int, in model: [ModelInjector]) -> Int? {
        var current: Int? = index
        while let at = current {
            if let value = model[at].values[name] { return value }
            current = model[at].parent
        }
        return nil
    }
}
