import Foundation
import Injector
import Synchronization
import TestSupport
import Testing

/// The published table is changed in place (issue 31) under the key each entry was inserted
/// with, while the registry's dictionaries compare names with `String.==`: a write under an
/// equal name stored in other bytes must change the lock-free reads too.
@Suite struct ReadyTableEqualNameTests {
    /// "primary", equal to the literal, but not stored as a small string (as a bridged
    /// `NSString` on Apple platforms, or any string whose buffer was reserved).
    static func largePrimary() -> String {
        var name = "primary"
        name.reserveCapacity(64)
        return name
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func reRegistrationUnderAnEqualNameReplacesTheLockFreeValue() throws {
        let injector = DependencyInjector()
        injector.register("old", name: "primary")
        #expect(try injector.resolve(String.self, name: "primary") == "old")  // published, small name
        let name = Self.largePrimary()
        #expect(name == "primary")
        injector.register("new", name: name)  // the registry replaces the entry (String ==)
        #expect(try injector.resolve(String.self, name: name) == "new")
        #expect(try injector.resolve(String.self, name: "primary") == "new")
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func unregisterUnderAnEqualNameRemovesAndReleasesTheValue() throws {
        let ledger = Ledger()
        let injector = DependencyInjector()
        injector.register(Tracked(id: 1, ledger: ledger), name: "primary")
        injector.unregister(Tracked.self, name: Self.largePrimary())
        #expect(!injector.isRegistered(Tracked.self, name: "primary"))
        #expect(throws: InjectionError.self) { try injector.resolve(Tracked.self, name: "primary") }
        // Growth would copy a stale entry along, alive for the injector's lifetime.
        for index in 0..<100 { injector.register(index, name: "n\(index)") }
        #expect(ledger.born == ledger.died, "a value outlived its unregistration")
        // Registered again: one live entry for the key, the new one.
        injector.register(Tracked(id: 2, ledger: ledger), name: "primary")
        #expect(try injector.resolve(Tracked.self, name: "primary").id == 2)
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func resetUnderAnEqualNameMakesANewSingleton() throws {
        let ledger = Ledger()
        let made = Count()
        let injector = DependencyInjector()
        injector.register(Tracked.self, name: "primary", scope: .singleton) { _ in
            Tracked(id: made.add(), ledger: ledger)
        }
        #expect(try injector.resolve(Tracked.self, name: "primary").id == 1)
        try injector.reset(Tracked.self, name: Self.largePrimary())
        #expect(try injector.resolve(Tracked.self, name: "primary").id == 2)
    }

    /// A failed `install` that puts back an entry under an equal name in other bytes (issue
    /// 40, item 2): the table gets it under its own key, so a later removal finds it and no
    /// value stays readable after it is unregistered. Both faces.
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func aFailedInstallPutsBackAnEntryThatALaterRemovalFinds() async throws {
        let injector = DependencyInjector()
        injector.register("before", name: "cafe\u{301}")  // NFD
        #expect(throws: InjectionError.self) { try injector.install(ReplacingEqualName()) }
        #expect(try injector.resolve(String.self, name: "caf\u{E9}") == "before")  // put back

        injector.unregister(String.self, name: "cafe\u{301}")

        #expect(throws: InjectionError.self) { try injector.resolve(String.self, name: "caf\u{E9}") }
        #expect(throws: InjectionError.self) { try injector.resolve(String.self, name: "cafe\u{301}") }

        let actor = AsyncDependencyInjector()
        await actor.register("before", name: "cafe\u{301}")
        await #expect(throws: InjectionError.self) { try await actor.install(AsyncReplacingEqualName()) }
        #expect(try await actor.resolve(String.self, name: "caf\u{E9}") == "before")
        await actor.unregister(String.self, name: "cafe\u{301}")
        await #expect(throws: InjectionError.self) { try await actor.resolve(String.self, name: "caf\u{E9}") }
    }

    /// The same while threads read the key without a lock: once it is unregistered, a read
    /// misses, and nothing outlives the unregistration.
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func aFailedInstallUnderReadersLeavesNothingAfterTheRemoval() async throws {
        let ledger = Ledger()
        for round in 0..<50 {
            let injector = DependencyInjector()
            injector.register(Tracked(id: round, ledger: ledger), name: "cafe\u{301}")
            let done = Flag()
            runOnThreads(5) { thread in
                guard thread == 0 else {
                    while !done.isRaised {
                        // Before the install, during it (its value), or put back by its undo.
                        if let found = try? injector.resolve(Tracked.self, name: "caf\u{E9}") {
                            #expect(found.id == round || found.id == -1)
                        }
                    }
                    return
                }
                _ = try? injector.install(ReplacingEqualTracked(ledger: ledger))
                injector.unregister(Tracked.self, name: "cafe\u{301}")
                #expect(throws: InjectionError.self) { try injector.resolve(Tracked.self, name: "caf\u{E9}") }
                done.raise()
            }
        }
        #expect(eventually { ledger.born == ledger.died }, "a value outlived its unregistration")
    }

    /// The same through the actor face, read by tasks while a task installs and unregisters.
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func aFailedActorFaceInstallUnderReadersLeavesNothingAfterTheRemoval() async throws {
        let ledger = Ledger()
        for round in 0..<50 {
            let injector = AsyncDependencyInjector()
            await injector.register(Tracked(id: round, ledger: ledger), name: "cafe\u{301}")
            let done = Flag()
            await withTaskGroup(of: Void.self) { group in
                for _ in 0..<4 {
                    group.addTask {
                        while !done.isRaised {
                            if let found = try? await injector.resolve(Tracked.self, name: "caf\u{E9}") {
                                #expect(found.id == round || found.id == -1)
                            }
                            await Task.yield()  // a ready value's resolve need not suspend: let the writer run
                        }
                    }
                }
                group.addTask {
                    _ = try? await injector.install(AsyncReplacingEqualTracked(ledger: ledger))
                    await injector.unregister(Tracked.self, name: "cafe\u{301}")
                    await #expect(throws: InjectionError.self) {
                        try await injector.resolve(Tracked.self, name: "caf\u{E9}")
                    }
                    done.raise()
                }
            }
        }
        #expect(eventually { ledger.born == ledger.died }, "a value outlived its unregistration")
    }

    /// No `reserveCapacity` needed: canonically equivalent names are equal keys for the
    /// registry, and different bytes (so different small words) for the table.
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func unregisterUnderACanonicallyEquivalentNameRemovesTheValue() throws {
        let injector = DependencyInjector()
        let composed = "caf\u{E9}"
        let decomposed = "cafe\u{301}"
        #expect(composed == decomposed)
        injector.register("value", name: composed)
        injector.unregister(String.self, name: decomposed)
        #expect(!injector.isRegistered(String.self, name: composed))
        #expect(throws: InjectionError.self) { try injector.resolve(String.self, name: composed) }
    }
}

/// Registers under the composed name (NFC) what is registered under the decomposed one, then
/// fails: the installation puts the decomposed entry back.
private struct ReplacingEqualName: DependencyModule {
    func register(in injector: DependencyInjector) throws(InjectionError) {
        injector.register("during", name: "caf\u{E9}")
        throw .sealed(DependencyKey(String.self))
    }
}

private struct AsyncReplacingEqualName: AsyncDependencyModule {
    func register(in injector: AsyncDependencyInjector) async throws(InjectionError) {
        await injector.register("during", name: "caf\u{E9}")
        throw .sealed(DependencyKey(String.self))
    }
}

private struct ReplacingEqualTracked: DependencyModule {
    let ledger: Ledger
    func register(in injector: DependencyInjector) throws(InjectionError) {
        injector.register(Tracked(id: -1, ledger: ledger), name: "caf\u{E9}")
        throw .sealed(DependencyKey(Tracked.self))
    }
}

private struct AsyncReplacingEqualTracked: AsyncDependencyModule {
    let ledger: Ledger
    func register(in injector: AsyncDependencyInjector) async throws(InjectionError) {
        await injector.register(Tracked(id: -1, ledger: ledger), name: "caf\u{E9}")
        throw .sealed(DependencyKey(Tracked.self))
    }
}
