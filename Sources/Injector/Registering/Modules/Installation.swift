/// An `install` in progress, for either face: which module is registering, and what to undo
/// if the installation fails. Bound as a task-local while the modules register, so that
/// registrations made meanwhile by other threads or tasks are not attributed to a module.
///
/// A module type belongs to one installation at a time (`Registry.modules`): a concurrent
/// `install` of the same type waits for that installation to end, so that it returns only
/// once the module's registrations are in place, or throws what that installation threw.
final class Installation: Sendable {
    @TaskLocal static var current: Installation?

    let injector: DependencyInjector
    // Locked: an async module may register from child tasks at once.
    private let journal = Locked(Journal())
    /// What both faces' `install` do once their modules have registered, before the eager
    /// singletons are created: throws `failure` (a module's), or the refusal of a sealed
    /// injector; returns the keys of the eager singletons to create, those still registered as
    /// such (a later registration may have replaced one meanwhile).
    func eagerKeysToCreate(after failure: InjectionError?) throws(InjectionError) -> [DependencyKey] {
        if let failure = failure ?? journal.withLock(\.nestedFailure) { throw failure }
        if let refused = refusedKey { throw .sealed(refused) }
        return eagerKeys.filter { injector.lookup($0)?.entry.isEager == true }
    }

    /// How the installation ended (`nil` while it runs), and the async installs waiting for it.
    private let ending = Locked(Ending())

    private struct Journal {
        /// The modules whose `register(in:)` is running, innermost last, with their default scopes.
        var modules: [(type: any Any.Type, defaultScope: Scope?)] = []
        /// What each key held before this installation first replaced it, in order, with the
        /// parameters of its initializer (for `graph()`), if it was made from one.
        var replaced: [(key: DependencyKey, previous: Entry?, parameters: [DependencyKey]?)] = []
        var replacedKeys: Set<DependencyKey> = []
        /// The keys it added decorators to.
        var decoratedKeys: Set<DependencyKey> = []
        /// Eager singletons registered by this installation, in registration order.
        var eagerKeys: [DependencyKey] = []
        /// The first key a sealed injector refused to register.
        var refusedKey: DependencyKey?
        /// Module types this installation claimed.
        var installedModules: [ObjectIdentifier] = []
        /// What the first `install` made inside a module threw, which fails the installation
        /// even when the module caught it: the inner install's registrations are the outer's.
        var nestedFailure: InjectionError?
        /// Whether `end(failing:)` has begun: a registration from then on (a task a module
        /// started, which inherits the binding) is no longer the installation's.
        var hasEnded = false
    }

    private struct Ending {
        var failure: InjectionError??
        var waiters: [CheckedContinuation<InjectionError?, Never>] = []
    }

    /// What an installation may do with a module type (see `claim(_:)`).
    enum Claim {
        /// Register it: this installation now owns the type.
        case register
        /// Skip it: it is installed, or this installation is installing it.
        case skip
        /// Wait for `installation`, which is installing it, to end.
        case wait(for: Installation)
    }

    init(injector: DependencyInjector) {
        self.injector = injector
        Self.made.increment()
    }

    /// The installation in progress into `injector` in this task, if any. Every registration
    /// asks; the task-local is read only once the process has made an installation (an app
    /// that installs no module never does), since until then it can hold none.
    static func current(into injector: DependencyInjector) -> Installation? {
        guard !made.isZero, let installation = current, installation.injector === injector,
            !installation.journal.withLock(\.hasEnded)
        else { return nil }
        return installation
    }

    /// How many installations have been made (see `current(into:)`).
    private static let made = AtomicCount()

    /// The module-qualified name of the module that is registering right now.
    var module: String? { journal.withLock { $0.modules.last.map { DependencyKey.name(of: $0.type) } } }

    /// The default scope of the module that is registering right now, if it sets one.
    /// (A module installed by another takes the outer one's, unless it sets its own.)
    var defaultScope: Scope? { journal.withLock { $0.modules.last { $0.defaultScope != nil }?.defaultScope } }

    /// Eager singletons registered by this installation, in registration order.
    var eagerKeys: [DependencyKey] { journal.withLock { $0.eagerKeys } }

    /// The first key a sealed injector refused to register during this installation.
    var refusedKey: DependencyKey? { journal.withLock { $0.refusedKey } }

    /// Claims `module` for this installation, unless the injector has it already or another
    /// installation is installing it. Waiting for another installation that (through others)
    /// waits for this one would never end: then the module is skipped, as an installed one is.
    func claim(_ module: any Any.Type) -> Claim {
        let id = ObjectIdentifier(module)
        let claim = injector.registry.withLock { registry -> Claim in
            switch registry.modules[id] {
            case nil:
                registry.modules[id] = .installing(self)
                return .register
            case .installed:
                return .skip
            case .installing(let other):
                var awaited: Installation? = other
                while let next = awaited {
                    if next === self { return .skip }
                    awaited = registry.installationWaits[ObjectIdentifier(next)]
                }
                registry.installationWaits[ObjectIdentifier(self)] = other
                return .wait(for: other)
            }
        }
        if case .register = claim { journal.withLock { $0.installedModules.append(id) } }
        return claim
    }

    /// Waits until `other` ends; throws what it threw.
    func wait(for other: Installation) throws(InjectionError) {
        let failure = other.ending.withLockWaiting { $0.failure }
        stopWaiting()
        if let failure { throw failure }
    }

    /// Waits until `other` ends, without blocking a thread; throws what it threw.
    func wait(for other: Installation) async throws(InjectionError) {
        let failure = await withCheckedContinuation { (waiter: CheckedContinuation<InjectionError?, Never>) in
            let failure = other.ending.withLock { ending -> InjectionError?? in
                if ending.failure == nil { ending.waiters.append(waiter) }
                return ending.failure
            }
            if let failure { waiter.resume(returning: failure) }
        }
        stopWaiting()
        if let failure { throw failure }
    }

    private func stopWaiting() {
        injector.registry.withLock { _ = $0.installationWaits.removeValue(forKey: ObjectIdentifier(self)) }
    }

    /// Ends the installation: its modules become installed, or (with a `failure`) everything it
    /// did is undone. Returns the teardowns of the values it let go (what it replaced for good,
    /// or made and took back), for the face to run (the actor face awaits them) before it calls
    /// `release(failing:)`, so that whoever waits for it goes on once they have run.
    func end(failing failure: InjectionError?) -> [PendingTeardown] {
        journal.withLock { $0.hasEnded = true }
        let teardowns: [PendingTeardown]
        if failure != nil {
            teardowns = undo()
        } else {
            let (claimed, replaced) = journal.withLock { ($0.installedModules, $0.replaced) }
            injector.registry.withLock { registry in
                for module in claimed { registry.modules[module] = .installed }
            }
            // The values the installation replaced (those kept per argument tuple too) are gone for good.
            teardowns = replaced.flatMap { injector.teardowns(ofReplaced: $0.previous) }
        }
        return teardowns
    }

    /// Lets whoever waits for the installation, which `end(failing:)` ended, go on.
    func release(failing failure: InjectionError?) {
        let waiters = ending.withLock { ending in
            ending.failure = .some(failure)
            return exchange(&ending.waiters, with: [])
        }
        ending.signalAll()
        for waiter in waiters { waiter.resume(returning: failure) }
    }

    /// Registrations made from now until `leave()` are attributed to `module`, and take its
    /// `defaultScope` when they name none.
    func enter(_ module: any Any.Type, defaultScope: Scope?) {
        journal.withLock { $0.modules.append((module, defaultScope)) }
    }

    /// Ends what the last `enter(_:)` began.
    func leave() {
        journal.withLock { _ = $0.modules.popLast() }
    }

    /// Notes that the installation replaced `previous` under `key`, if it is the first it
    /// replaced there (what a failure puts back); returns whether it was, or `nil` when the
    /// installation has ended: the replacement is not its (see `hasEnded`).
    func recordReplacement(
        of key: DependencyKey,
        previous: Entry?,
        parameters: [DependencyKey]?,
        isEager: Bool
    ) -> Bool? {
        journal.withLock { journal in
            guard !journal.hasEnded else { return nil }
            if isEager { journal.eagerKeys.append(key) }
            guard journal.replacedKeys.insert(key).inserted else { return false }
            journal.replaced.append((key, previous, parameters))
            return true
        }
    }

    /// Notes that an `install` made inside one of this installation's modules threw `error`:
    /// the installation fails with it, even if the module goes on (see `nestedFailure`).
    func noteNestedFailure(_ error: InjectionError) {
        journal.withLock { journal in
            if journal.nestedFailure == nil { journal.nestedFailure = error }
        }
    }

    /// Notes that the installation added a decorator to `key`, which a failure takes back.
    func recordDecorator(of key: DependencyKey) {
        journal.withLock { _ = $0.decoratedKeys.insert(key) }
    }

    /// Notes that a sealed injector refused `key`, for `install` to throw; `false` once the
    /// installation has ended (the caller reports it as a refusal outside any).
    func recordRefusal(of key: DependencyKey) -> Bool {
        journal.withLock { journal in
            guard !journal.hasEnded else { return false }
            if journal.refusedKey == nil { journal.refusedKey = key }
            return true
        }
    }

    /// Puts back what the installation replaced and forgets the modules it claimed; returns the
    /// teardowns of what it made that goes.
    private func undo() -> [PendingTeardown] {
        let (replaced, installed, decorated) = journal.withLock {
            ($0.replaced, $0.installedModules, $0.decoratedKeys)
        }
        let id = ObjectIdentifier(self)
        let (undone, released, undecorated) = injector.registry.updateReturning { registry in
            for module in installed { registry.modules[module] = nil }
            // Released after the unlock: a decorator's closure may hold the last reference to a value.
            var removedDecorators: [Decorator] = []
            // A value kept for a key whose layers go may be wrapped by them: it goes too, and
            // so do the values cached by argument for the key.
            var undecorated: [Cache] = []
            var decoratedTuples: [KeptValues.Tuple] = []
            for key in decorated {
                removedDecorators += registry.removeDecorators(of: key, addedBy: id)
                if let dropped = registry.dropValue(of: key) { undecorated.append(dropped) }
                decoratedTuples += registry.dropTuples(of: key)
            }
            return (
                replaced.reversed().map { key, previous, parameters in
                    registry.initializerParameters[key] = parameters
                    return registry.replace(key, with: previous)
                },
                (removedDecorators, decoratedTuples), undecorated
            )
        }
        // Released here, after the unlock: a decorator's closure or a displaced registration
        // may hold the last reference to a value. (A decorator that a published list holds,
        // one a resolve applied before the failure, lives on with the list: see `DecoratorList`.)
        let (removedDecorators, decoratedTuples) = released
        withExtendedLifetime(removedDecorators) {}
        // What the installation created (eager singletons, scoped values of an opened scope's
        // own, values cached by its registrations) goes; what it replaced is back, with the
        // values it kept per argument tuple, which nothing took out meanwhile.
        return undone.flatMap(injector.teardowns(ofReplaced:)) + undecorated.compactMap(\.teardown)
            + decoratedTuples.compactMap(\.teardown)
    }
}

/// Where a module type stands in one injector (`Registry.modules`).
enum ModuleState {
    /// An installation is registering it.
    case installing(Installation)
    /// Its registrations are in place.
    case installed
}

extension DependencyInjector {
    /// How many installations into this injector wait for another one now (for tests).
    var installationsWaiting: Int { registry.withLock { $0.installationWaits.count } }
}
