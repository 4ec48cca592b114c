import Foundation
import Injector

// Types shared by the test suites. Each suite builds its own `DependencyInjector()`, so the
// suites run in parallel without touching `DependencyInjector.shared`.

protocol Greeter: Sendable {
    func greet() -> String
}

struct EnglishGreeter: Greeter {
    func greet() -> String { "Hello" }
}

struct FrenchGreeter: Greeter {
    func greet() -> String { "Bonjour" }
}

/// A class whose identity tells instances apart.
final class Service: Sendable {
    let label: String
    init(label: String = "service") { self.label = label }
}

final class Dependent: Sendable {
    let service: Service
    init(service: Service) { self.service = service }
}

enum FeatureA {
    struct Config: Equatable { let value: String }
}

enum FeatureB {
    struct Config: Equatable { let value: String }
}

struct Box<Value> {
    let value: Value
}

struct SampleError: Error, Equatable {
    let code: Int
}

/// Nodes of a dependency chain or cycle, told apart by type.
struct NodeA {}
struct NodeB {}
struct NodeC {}

/// A thread-safe counter for "how many times did this factory run".
final class Counter: @unchecked Sendable {
    // `count` is guarded by `lock`.
    private let lock = NSLock()
    private var count = 0

    var value: Int { lock.withLock { count } }

    @discardableResult
    func increment() -> Int {
        lock.withLock {
            count += 1
            return count
        }
    }
}

/// Values appended from several threads.
final class Collected<Value>: @unchecked Sendable {
    // `stored` is guarded by `lock`.
    private let lock = NSLock()
    private var stored: [Value] = []

    var values: [Value] { lock.withLock { stored } }
    func append(_ value: Value) { lock.withLock { stored.append(value) } }
}

/// Runs `body` on `threads` new threads that start together, and returns when all are done.
func runOnThreads(_ threads: Int, _ body: @escaping @Sendable (Int) -> Void) {
    let gate = DispatchSemaphore(value: 0)
    let done = DispatchGroup()
    for index in 0..<threads {
        done.enter()
        let thread = Thread {
            gate.wait()
            body(index)
            done.leave()
        }
        thread.stackSize = 8 << 20
        thread.start()
    }
    for _ in 0..<threads { gate.signal() }
    done.wait()
}
