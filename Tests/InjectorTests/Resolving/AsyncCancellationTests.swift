import Injector
import Testing

/// A cancelled resolve stops with a `CancellationError`; nobody else pays for it.
@Suite struct AsyncCancellationTests {
    /// The task that started the creation, or the one that joined it, is cancelled while the
    /// creation is held up; the other one still gets the value.
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)  // `.timeLimit` takes a `Duration`
    @Test(.timeLimit(.minutes(1)), arguments: ["creator", "joiner"])
    func aCancelledResolveStopsWaitingWhileAConcurrentOneGetsTheValue(cancelling: String) async throws {
        let injector = AsyncDependencyInjector()
        let calls = Counter()
        let started = AsyncGate()
        let release = AsyncGate()
        await injector.register(Service.self, scope: .singleton) { _ in
            calls.increment()
            started.open()
            await release.wait()
            // Throws if the creation was cancelled along with the task that started it.
            try Task.checkCancellation()
            return Service(label: "shared")
        }

        let creator = Task { try await injector.resolve(Service.self) }
        await started.wait()
        let joiner = Task { try await injector.resolve(Service.self) }
        try await untilWaiting(2, for: Service.self, in: injector)
        let (cancelled, other) = cancelling == "creator" ? (creator, joiner) : (joiner, creator)

        cancelled.cancel()
        // The cancelled task returns while the creation is still held up.
        let cancelledResult = await cancelled.result
        #expect(isCancellation(cancelledResult.error, of: DependencyKey(Service.self)))

        release.open()
        let service = try await other.value
        #expect(service.label == "shared")
        #expect(try await injector.resolve(Service.self) === service)
        #expect(calls.value == 1)
    }

    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)  // `.timeLimit` takes a `Duration`
    @Test(.timeLimit(.minutes(1))) func aCreationWhoseOnlyRequesterIsCancelledFinishesAndIsKept() async throws {
        let injector = AsyncDependencyInjector()
        let calls = Counter()
        let started = AsyncGate()
        let release = AsyncGate()
        let finished = AsyncGate()
        await injector.register(Service.self, scope: .singleton) { _ in
            calls.increment()
            started.open()
            await release.wait()
            defer { finished.open() }
            try Task.checkCancellation()
            return Service(label: "kept")
        }

        let creator = Task { try await injector.resolve(Service.self) }
        await started.wait()
        creator.cancel()
        #expect(isCancellation(await creator.result.error, of: DependencyKey(Service.self)))

        release.open()
        await finished.wait()
        #expect(try await injector.resolve(Service.self).label == "kept")
        #expect(calls.value == 1)
    }

    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)  // `.timeLimit` takes a `Duration`
    @Test(.timeLimit(.minutes(1))) func aTransientFactoryRunsInTheCallersTaskAndSurfacesItsCancellation() async {
        let injector = AsyncDependencyInjector()
        await injector.register(Service.self) { _ in
            try await Task.sleep(nanoseconds: 60_000_000_000)  // throws `CancellationError` once cancelled
            return Service()
        }
        await injector.register(Dependent.self) { r in try await Dependent(service: r.resolve()) }

        let task = Task { try await injector.resolve(Dependent.self) }
        task.cancel()
        let error = await task.result.error
        #expect(isCancellation(error, of: DependencyKey(Service.self)))
        guard case .factoryFailed(_, let path, _) = error as? InjectionError else { return }
        #expect(path == [DependencyKey(Dependent.self), DependencyKey(Service.self)])
    }

    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)  // `.timeLimit` takes a `Duration`
    @Test(.timeLimit(.minutes(1))) func aTaskCancelledBeforeItAsksStillGetsAReadySingleton() async throws {
        let injector = AsyncDependencyInjector()
        await injector.register(Service.self, scope: .singleton) { _ in Service() }
        let service = try await injector.resolve(Service.self)

        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await injector.resolve(Service.self)
        }
        #expect(try await task.value === service)
    }

    /// The resolve that started a singleton's creation is cancelled while the creation runs;
    /// the creation goes on for a resolve that joined it, and its completion resolves a
    /// `.graph` value whose own completion needs the singleton: that must still be shared
    /// within the creation (it was not, once the cancelled resolve had ended: the joiner got
    /// a false `circularDependency`, LoginPresenter → LoginView → LoginPresenter).
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)  // `.timeLimit` takes a `Duration`
    @Test(.timeLimit(.minutes(1))) func aCreationGoingOnAfterItsRequesterIsCancelledStillSharesValues() async throws {
        let injector = AsyncDependencyInjector()
        let started = AsyncGate()
        let release = AsyncGate()
        await injector.register(LoginView.self, scope: .graph) { _ in LoginView() }
            .initCompleted { (r: AsyncResolver, view) in
                view.presenter = try await r.resolve(LoginPresenter.self)
            }
        await injector.register(LoginPresenter.self, scope: .singleton) { _ in
            started.open()
            await release.wait()
            return LoginPresenter()
        }
        .initCompleted { (r: AsyncResolver, presenter) in
            presenter.view = try await r.resolve(LoginView.self)
        }

        let requester = Task { try await injector.resolve(LoginView.self) }
        await started.wait()
        let joiner = Task { try await injector.resolve(LoginPresenter.self) }
        try await untilWaiting(2, for: LoginPresenter.self, in: injector)
        requester.cancel()
        _ = await requester.result
        release.open()

        let presenter = try await joiner.value  // threw the false cycle
        #expect(try await injector.resolve(LoginPresenter.self) === presenter)
    }
}

extension Result {
    /// The failure, or `nil` on success.
    fileprivate var error: Failure? {
        guard case .failure(let error) = self else { return nil }
        return error
    }
}
