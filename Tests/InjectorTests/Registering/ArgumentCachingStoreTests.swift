import Foundation
import TestSupport
import Testing

@testable import Injector

/// Values cached per argument tuple live in their keeper's store of kept values (`KeptValues`),
/// found by their registration: what a replacement, an installation, a wait and a lock do to
/// them. Regressions a review of that move found, and behaviour it checked.
@Suite struct ArgumentCachingStoreTests {
    typealias Session = ArgumentCachingSeamTests.Session

    /// Replaces `Session`, resolves the new registration (a module may, to check it, or
    /// another thread may meanwhile), then fails.
    struct ReplacingAndResolvingModule: DependencyModule {
        func register(in injector: DependencyInjector) throws(InjectionError) {
            injector.register(Session.self, caching: .strong) { (_, user: Int) in Session(user: user, tag: "module") }
            _ = try injector.resolve(Session.self, arguments: 1)
            throw .unknownScope(.named("abandoned"))
        }
    }

    /// A failed installation puts back the registration it replaced with the values that
    /// registration cached, and tears none of them down (they are torn down only when the
    /// installation succeeds). (Catches: the first claim of the module's registration let go
    /// of, and tore down, the replaced registration's tuples, mid-installation.)
    @Test func aFailedInstallPutsBackTheReplacedRegistrationsCachedValuesThoughItsOwnWasResolved() throws {
        let closed = Collected<Int>()
        let app = DependencyInjector()
        app.register(Session.self, caching: .strong, teardown: { closed.append($0.user) }) { (_, user: Int) in
            Session(user: user)
        }
        let first = try app.resolve(Session.self, arguments: 1)
        #expect(throws: InjectionError.self) { try app.install(ReplacingAndResolvingModule()) }
        #expect(closed.values.isEmpty)  // nothing the failed installation replaced is torn down
        let again = try app.resolve(Session.self, arguments: 1)
        #expect(again.tag == "plain")
        #expect(again === first)  // put back with its values
    }

    /// Replaces `Session` and decorates it (without resolving it), then fails.
    struct ReplacingAndDecoratingModule: DependencyModule {
        func register(in injector: DependencyInjector) throws(InjectionError) {
            injector.register(Session.self, caching: .strong) { (_, user: Int) in Session(user: user, tag: "module") }
            injector.decorate(Session.self) { _, inner in Session(user: inner.user, tag: "decorated") }
            throw .unknownScope(.named("abandoned"))
        }
    }

    /// The same through a decorator the failed installation adds to its own registration: the
    /// replaced registration's values were never wrapped, and come back. (Catches: the
    /// decorator's drop by key took the replaced registration's tuples too.)
    @Test func aFailedInstallThatDecoratesItsReplacementPutsBackTheReplacedRegistrationsValues() throws {
        let closed = Collected<Int>()
        let app = DependencyInjector()
        app.register(Session.self, caching: .strong, teardown: { closed.append($0.user) }) { (_, user: Int) in
            Session(user: user)
        }
        let first = try app.resolve(Session.self, arguments: 1)
        #expect(throws: InjectionError.self) { try app.install(ReplacingAndDecoratingModule()) }
        #expect(closed.values.isEmpty)
        #expect(try app.resolve(Session.self, arguments: 1) === first)
    }

    /// A thread that waited for another thread's creation of a tuple's value gets that value,
    /// even when the registration was replaced meanwhile: the factory runs once. (Catches: the
    /// replaced registration's tuples were let go with the creation's place, and the waiter
    /// asked again, found its registration gone and ran the old factory a second time.)
    @Test func aThreadThatWaitedForACreationAcrossAReRegistrationGetsTheValueMadeOnce() throws {
        let made = Counter()
        let started = DispatchSemaphore(value: 0)
        let proceed = DispatchSemaphore(value: 0)
        let app = DependencyInjector()
        app.register(Session.self, caching: .strong) { (_, user: Int) in
            let number = made.increment()
            if number == 1 {
                started.signal()
                proceed.wait()
            }
            return Session(user: user, tag: "old \(number)")
        }
        let tags = Collected<String>()
        let done = DispatchGroup()
        for index in 0..<2 {
            done.enter()
            Thread {
                tags.append((try? app.resolve(Session.self, arguments: 7).tag) ?? "error")
                done.leave()
            }.start()
            if index == 0 { started.wait() }  // the first makes it
        }
        while !app.hasWaiters(for: [7], of: Session.self) { sched_yield() }  // the second waits for it
        app.register(Session.self, caching: .strong) { (_, user: Int) in Session(user: user, tag: "new") }
        proceed.signal()
        done.wait()
        #expect(made.value == 1)
        #expect(tags.values == ["old 1", "old 1"])
    }

    /// An argument whose `Hashable` conformance resolves from the injector (user code):
    /// hashing the tuple must not happen under the keeper's registry lock.
    struct Probe: Hashable, @unchecked Sendable {
        let id: Int
        let injector: DependencyInjector
        func hash(into hasher: inout Hasher) {
            _ = try? injector.resolve(Config.self)
            hasher.combine(id)
        }
        static func == (lhs: Probe, rhs: Probe) -> Bool { lhs.id == rhs.id }
    }

    final class Config: Sendable {}

    /// The tuple is hashed before its value is looked up under the keeper's lock. (Catches: the
    /// hash ran under the keeper's lock, and the argument's resolve of a singleton deadlocked.)
    @Test func anArgumentsHashRunsOutsideTheKeepersRegistryLock() throws {
        let app = DependencyInjector()
        app.register(Config.self, scope: .singleton) { _ in Config() }
        app.register(Session.self, caching: .strong) { (_, probe: Probe) in Session(user: probe.id) }
        let finished = try finishes(withinSeconds: 300) {
            _ = try app.resolve(Session.self, arguments: Probe(id: 1, injector: app))
        }
        #expect(finished)
    }

    final class A: Sendable {}
    final class B: Sendable {}

    /// Two threads whose cached values need each other get a cycle, never a hang.
    @Test func twoThreadsWhoseCachedValuesNeedEachOtherGetACycle() throws {
        let injector = DependencyInjector()
        let started = Counter()
        let both = DispatchSemaphore(value: 0)
        let meet: @Sendable () -> Void = {
            let number = started.increment()
            if number == 2 {
                both.signal()
                both.signal()
            }
            if number <= 2 { both.wait() }  // a factory run again after the cycle goes on
        }
        injector.register(A.self, caching: .strong) { (r, id: Int) in
            meet()
            _ = try r.resolve(B.self, arguments: id)
            return A()
        }
        injector.register(B.self, caching: .strong) { (r, id: Int) in
            meet()
            _ = try r.resolve(A.self, arguments: id)
            return B()
        }
        let errors = Collected<String>()
        let finished = try finishes(withinSeconds: 300) {
            runOnThreads(2) { index in
                do {
                    if index == 0 {
                        _ = try injector.resolve(A.self, arguments: 1)
                    } else {
                        _ = try injector.resolve(B.self, arguments: 1)
                    }
                    errors.append("none")
                } catch {
                    errors.append("\(error)")
                }
            }
        }
        #expect(finished)
        #expect(errors.values.count == 2)
        #expect(errors.values.contains { $0.contains("ircular") }, "\(errors.values)")
    }

    /// A cached factory that asks for its own tuple gets a cycle, on both faces.
    @Test(arguments: Face.allCases)
    func aCachedFactoryAskingForItsOwnTupleGetsACycle(face: Face) async throws {
        let app = face.makeInjector()
        switch app.base {
        case .sync(let injector):
            injector.register(A.self, caching: .strong) { (r, id: Int) in
                _ = try r.resolve(A.self, arguments: id)
                return A()
            }
            let finished = try finishes(withinSeconds: 300) {
                #expect(throws: InjectionError.self) { try injector.resolve(A.self, arguments: 1) }
            }
            #expect(finished)
        case .async(let injector):
            await injector.register(A.self, caching: .strong) { (r, id: Int) in
                _ = try await r.resolve(A.self, arguments: id)
                return A()
            }
            let finished = await finishesAsync(withinSeconds: 300) {
                await #expect(throws: InjectionError.self) { try await injector.resolve(A.self, arguments: 1) }
            }
            #expect(finished)
        }
    }

    /// A test scope keeps its own values of the app's registration; the app replaces it; the
    /// test scope's next resolve gets the new registration's value, and the old values are torn
    /// down (once) by then or by the scope's close.
    @Test func aTestScopesValuesOfAReplacedAncestorRegistrationAreTornDownOnce() throws {
        let closed = Collected<String>()
        let app = DependencyInjector()
        app.register(Session.self, caching: .strong, teardown: { closed.append($0.tag) }) { (_, user: Int) in
            Session(user: user, tag: "old")
        }
        let scope = app.child(singletons: .own)
        _ = try scope.resolve(Session.self, arguments: 1)
        app.register(Session.self, caching: .strong, teardown: { closed.append($0.tag) }) { (_, user: Int) in
            Session(user: user, tag: "new")
        }
        #expect(try scope.resolve(Session.self, arguments: 1).tag == "new")
        try scope.close()
        #expect(closed.values.sorted() == ["new", "old"])
    }
}
