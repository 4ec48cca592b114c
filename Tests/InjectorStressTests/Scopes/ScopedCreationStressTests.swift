import Dispatch
import Foundation
import Injector
import TestSupport
import Testing

/// The first resolves of a scoped value racing inside one opened scope on the sync face, where
/// the scope's own claim decides who creates it (see `KeptValues`): one creation per scope,
/// a failed creation wakes its waiters, and two creations that wait for each other are a cycle.
@Suite struct ScopedCreationStressTests {
    final class Transaction: Sendable {
        let number: Int
        init(number: Int) { self.number = number }
    }

    struct Flaky: Error {}

    @Test(.timeLimit(.minutes(1)))
    func eightThreadsResolvingOneScopeFirstCreateItsValueOnce() {
        let created = Counter()
        let app = DependencyInjector()
        app.register(Transaction.self, scope: .scoped) { _ in
            usleep(200)  // widens the window in which the other threads find it being created
            return Transaction(number: created.increment())
        }
        let scopes = 100
        for _ in 0..<scopes {
            let request = app.openScope()
            let seen = Collected<Int>()
            runOnThreads(8) { _ in
                if let transaction = try? request.child().resolve(Transaction.self) { seen.append(transaction.number) }
            }
            #expect(seen.values.count == 8)
            #expect(Set(seen.values).count == 1)
            try? request.close()
        }
        #expect(created.value == scopes)
    }

    @Test(.timeLimit(.minutes(1)))
    func aFailedCreationWakesItsWaitersAndTheNextCreatesTheValue() {
        for _ in 0..<50 {
            let attempts = Counter()
            let app = DependencyInjector()
            app.register(Transaction.self, scope: .scoped) { _ in
                let attempt = attempts.increment()
                usleep(200)
                if attempt == 1 { throw Flaky() }
                return Transaction(number: attempt)
            }
            let request = app.openScope()
            let seen = Collected<Int?>()
            runOnThreads(8) { _ in seen.append(try? request.resolve(Transaction.self).number) }

            // The first attempt's resolve failed; every other resolve got the one value made
            // after it, whether it waited for the first attempt or came later.
            let values = seen.values.compactMap { $0 }
            #expect(seen.values.count - values.count == 1)
            #expect(Set(values).count == 1)
            #expect(attempts.value == 2)
        }
    }

    final class Tagged: Sendable {
        let tag: String
        init(_ tag: String) { self.tag = tag }
    }

    @Test(.timeLimit(.minutes(1)))
    func aResolveThatWaitedThroughAReRegistrationGetsTheNewRegistrationsValue() async throws {
        let started = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let app = DependencyInjector()
        app.register(Tagged.self, scope: .scoped) { _ in
            started.signal()
            release.wait()
            return Tagged("old")
        }
        let request = app.openScope()
        async let first = onOwnThread { try? request.resolve(Tagged.self).tag }
        await onOwnThread { started.wait() }
        async let second = onOwnThread { try? request.resolve(Tagged.self).tag }
        // Widens the window in which the second resolve waits for the first's creation; had it
        // not started waiting yet, it finds the new registration and the result is the same.
        usleep(50_000)
        app.register(Tagged.self, scope: .scoped) { _ in Tagged("new") }
        release.signal()
        let (old, new) = await (first, second)
        #expect(old == "old")  // made for its resolve by the registration it found
        #expect(new == "new")
        #expect(try request.resolve(Tagged.self).tag == "new")
    }

    @Test(.timeLimit(.minutes(1)))
    func closingTheScopeWhileAResolveWaitsForACreationEndsBoth() async throws {
        let started = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let made = Counter()
        let app = DependencyInjector()
        app.register(Tagged.self, scope: .scoped) { _ in
            if made.increment() == 1 {
                started.signal()
                release.wait()
            }
            return Tagged("made")
        }
        let request = app.openScope()
        let outcome: @Sendable () -> InjectionError? = {
            do throws(InjectionError) {
                _ = try request.resolve(Tagged.self)
                return nil
            } catch {
                return error
            }
        }
        async let first = onOwnThread(outcome)
        await onOwnThread { started.wait() }
        async let second = onOwnThread(outcome)
        usleep(50_000)  // widens the window in which the second waits for the first
        try request.close()
        release.signal()
        for error in await [first, second] {
            guard case .closed? = error else {
                Issue.record("expected closed, got \(String(describing: error))")
                continue
            }
        }
    }

    final class Left: Sendable {}
    final class Right: Sendable {}

    @Test(.timeLimit(.minutes(1)))
    func twoThreadsCreatingScopedValuesThatNeedEachOtherGetACycleNotADeadlock() {
        let bothStarted = DispatchGroup()
        let runs = Counter()
        // The first two runs (one of each) start together: both creations are claimed before
        // either asks for the other. A later run (the survivor retrying) goes straight on.
        let startTogether: @Sendable () -> Void = {
            guard runs.increment() <= 2 else { return }
            bothStarted.leave()
            bothStarted.wait()
        }
        let app = DependencyInjector()
        app.register(Left.self, scope: .scoped) { r in
            startTogether()
            _ = try r.resolve(Right.self)
            return Left()
        }
        app.register(Right.self, scope: .scoped) { r in
            startTogether()
            _ = try r.resolve(Left.self)
            return Right()
        }
        let request = app.openScope()
        let errors = Collected<InjectionError?>()
        bothStarted.enter()
        bothStarted.enter()
        runOnThreads(2) { thread in
            do throws(InjectionError) {
                if thread == 0 { _ = try request.resolve(Left.self) } else { _ = try request.resolve(Right.self) }
                errors.append(nil)
            } catch {
                errors.append(error)
            }
        }
        #expect(errors.values.count == 2)
        for error in errors.values {
            guard case .circularDependency(let path)? = error else {
                Issue.record("expected a cycle, got \(String(describing: error))")
                continue
            }
            #expect(path.count == 3 && path.first == path.last)
        }
    }
}
