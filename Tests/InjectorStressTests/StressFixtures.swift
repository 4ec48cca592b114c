import Foundation
import Injector
import Synchronization
import TestSupport

// What the stress suites share: values whose births and deaths are counted, flags and
// counters the threads share without a lock, and per-thread findings.

/// A value whose births and deaths are counted, with a check word that a torn or freed
/// value is unlikely to pass.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
final class Tracked: Sendable {
    let id: Int
    private let check: Int
    private let ledger: Ledger

    init(id: Int, ledger: Ledger) {
        self.id = id
        check = ~id
        self.ledger = ledger
        ledger.noteBirth()
    }

    deinit { ledger.noteDeath() }

    var isWhole: Bool { check == ~id }
}

/// How many `Tracked` were made and released.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
final class Ledger: Sendable {
    private let births = Count()
    private let deaths = Count()

    var born: Int { births.value }
    var died: Int { deaths.value }

    func noteBirth() { births.add() }
    func noteDeath() { deaths.add() }
}

/// A count with relaxed atomics, which (unlike `Counter`'s lock) orders nothing between the
/// threads that add to it: read it once they are done, or for what only it tells.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
final class Count: Sendable {
    private let stored = Atomic<Int>(0)

    var value: Int { stored.load(ordering: .relaxed) }

    /// Adds `amount` and returns the new count.
    @discardableResult
    func add(_ amount: Int = 1) -> Int { stored.wrappingAdd(amount, ordering: .relaxed).newValue }
}

/// A flag raised once, by the writer after its last write has returned.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
final class Flag: Sendable {
    private let raised = Atomic<Bool>(false)

    func raise() { raised.store(true, ordering: .releasing) }
    var isRaised: Bool { raised.load(ordering: .acquiring) }
}

/// What one observer was told: the resolves of "own", the others, and the failed ones (or
/// of another type).
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
final class Tally: Sendable {
    private let ownReports = Count()
    private let otherReports = Count()
    private let failureReports = Count()

    var own: Int { ownReports.value }
    var others: Int { otherReports.value }
    var failures: Int { failureReports.value }

    func note(_ event: ResolutionEvent) {
        if event.error != nil || ObjectIdentifier(event.key.type) != ObjectIdentifier(Tracked.self) {
            failureReports.add()
        }
        if event.key.name == "own" { ownReports.add() } else { otherReports.add() }
    }
}

/// An injector that the last thread to read it drops.
final class Holder: @unchecked Sendable {
    // `stored` is guarded by `lock`.
    private let lock = NSLock()
    private var stored: DependencyInjector?

    var injector: DependencyInjector? {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}

/// One thread's reads of one key: how many, how many threw `notRegistered`, the last id, and
/// what was wrong. Kept on the thread until it is done.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
struct Reader {
    /// The ids that were registered.
    let valid: ClosedRange<Int>
    var reads = 0
    var misses = 0
    var last = Int.min
    var problems: [String] = []

    init(valid: ClosedRange<Int>) { self.valid = valid }

    /// Checks a read: a whole value with a registered id, never older than the last one read,
    /// and `last` when the writer was done before the read (`-1`: no value at all).
    @discardableResult
    mutating func check(last expected: Int? = nil, _ read: () throws -> Tracked) -> Tracked? {
        do {
            return check(try read(), last: expected)
        } catch {
            reads += 1
            problems.append("\(error)")
            return nil
        }
    }

    /// Checks a value read, as `check(last:_:)` does.
    @discardableResult
    mutating func check(_ value: Tracked, last expected: Int?) -> Tracked {
        reads += 1
        if !value.isWhole || !valid.contains(value.id) {
            problems.append("a value that was never registered: \(value.id)")
        } else if value.id < last {
            problems.append("went back from \(last) to \(value.id)")
        } else if let expected, value.id != expected {
            problems.append("\(value.id) after the writer was done, not \(expected)")
        }
        last = value.id
        return value
    }

    /// Checks a read of a key whose value never changes: a whole value with the `expected` id.
    @discardableResult
    mutating func check(expected: Int, _ read: () throws -> Tracked) -> Tracked? {
        reads += 1
        do {
            let value = try read()
            if !value.isWhole || value.id != expected { problems.append("\(value.id), not \(expected)") }
            return value
        } catch {
            problems.append("\(error)")
            return nil
        }
    }
}

/// The findings of every thread, gathered as each ends.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
final class Findings: Sendable {
    private let gathered = Collected<(reads: Int, misses: Int, problems: [String])>()

    func add(_ reader: Reader) { gathered.append((reader.reads, reader.misses, reader.problems)) }
    func add(problem: String) { gathered.append((0, 0, [problem])) }

    var reads: Int { gathered.values.reduce(0) { $0 + $1.reads } }
    var misses: Int { gathered.values.reduce(0) { $0 + $1.misses } }
    var problems: [String] { gathered.values.flatMap(\.problems) }
}

/// Whether `condition` holds within a second: for a value whose release a reader still inside
/// a table defers to a later write or a background pass (see `DeferredReleases`), as when the
/// last write of a test raced its readers. It blocks its thread: the pass runs on a dispatch
/// queue of its own.
func eventually(_ condition: () -> Bool) -> Bool {
    for _ in 0..<1_000 where !condition() { usleep(1_000) }
    return condition()
}
