import Injector
import Testing

private final class Consumer {
    @Inject var greeter: any Greeter
    @Inject(name: "task") var task: Int
    @LazyInject(name: "task") var lazyTask: Int
    @OptionalInject(name: "task") var optionalTask: Int?
}

private struct NumberedGreeter: Greeter {
    let number: Int
    func greet() -> String { "greeter \(number)" }
}

@Suite struct WrapperIsolationTests {
    @Test func sixtyFourParallelTasksEachSeeOnlyTheirOwnRegistrations() async throws {
        let parent = DependencyInjector()
        parent.register(EnglishGreeter() as any Greeter)

        let mismatches = await withTaskGroup(of: Int.self) { group in
            for number in 0..<64 {
                group.addTask {
                    let injector = parent.child()
                    injector.register(NumberedGreeter(number: number) as any Greeter)
                    injector.register(number, name: "task")
                    return await DependencyInjector.$current.withValue(injector) {
                        var wrong = 0
                        for _ in 0..<20 {
                            await Task.yield()  // let other tasks interleave between creations
                            let consumer = Consumer()
                            if consumer.greeter.greet() != "greeter \(number)" { wrong += 1 }
                            if consumer.task != number || consumer.lazyTask != number { wrong += 1 }
                            if consumer.optionalTask != number { wrong += 1 }
                        }
                        return wrong
                    }
                }
            }
            return await group.reduce(0, +)
        }
        #expect(mismatches == 0)
        #expect(try parent.resolve((any Greeter).self).greet() == "Hello")
    }
}
