extension DependencyInjector {
    /// Creates an object whose `@Inject` properties resolve from this injector, and throws the
    /// first property that fails, instead of returning an object that stops the program when
    /// that property is read: checked construction, for objects you create yourself.
    ///
    /// ```swift
    /// let useCase = try injector.make { PlaceOrderUseCase() }
    /// let model = try DependencyInjector.current.make { CheckoutViewModel(cart: cart) }
    /// ```
    ///
    /// While `body` runs, this injector is ``current``, so wrappers that name no injector
    /// resolve from it. Every `@Inject` property initialised meanwhile is checked — the
    /// object's, and those of the objects it creates — and the error names the property:
    ///
    /// ```text
    /// Injector could not resolve MyApp.AppConfig: nothing is registered for it.
    /// Resolution path: MyApp.PlaceOrderUseCase.users (MyApp/UseCase.swift:25) → MyApp.UserRepository → …
    /// ```
    ///
    /// Each `@LazyInject` property initialised meanwhile is checked without being resolved:
    /// its key must be one the property's injector can answer (registered, in an ancestor, a
    /// declared collection, allowed by a strict test scope, an optional or a provider handle),
    /// with a factory its first read can run (not an async one; a scoped value only in an
    /// opened scope), or `make` throws, with the property in the path. No factory runs for it, so the property
    /// stays lazy and still breaks a cycle; a factory that fails on the first read still
    /// fails there (read `$property` where it may). `@OptionalInject` properties never fail,
    /// so they are not checked.
    ///
    /// An object that a factory builds needs no `make`: a resolve already fails when a
    /// property of what its factory built fails, `@LazyInject` ones checked as here.
    ///
    /// > Note: The checks follow the thread that runs `body`. An object that `body` creates on
    /// > another thread (a `DispatchQueue`, a `Thread`) is not checked; the `async` form
    /// > follows `body`'s task and the child tasks it awaits.
    ///
    /// - Throws: The failure of the first `@Inject` property that could not be resolved; an
    ///   error `body` throws, as ``InjectionError/factoryFailed(_:path:underlying:)`` of `T`
    ///   (an `InjectionError` as it is).
    public func make<T>(_ body: () throws -> T) throws(InjectionError) -> T {
        let context = ResolutionContext.current
        do {
            if Self.current === self { return try context.construct(body) }
            return try Self.$current.withValue(self) { try context.construct(body) }
        } catch {
            throw Self.failure(error, making: T.self, in: context.path)
        }
    }

    /// ``make(_:)`` for a `body` that awaits: the properties of the objects it creates are
    /// checked across its suspensions, in the tasks it awaits too.
    ///
    /// ```swift
    /// let model = try await injector.make { await CheckoutViewModel.load() }
    /// ```
    public func make<T>(
        isolation: isolated (any Actor)? = #isolation,
        _ body: () async throws -> T
    ) async throws(InjectionError) -> T {
        do {
            return try await Self.$current.withValue(self) {
                try await AsyncWrapperCapture.build(body)
            }
        } catch {
            throw Self.failure(error, making: T.self, in: [])
        }
    }

    /// What `make` throws for `error`, thrown while it made a `T` after `path`.
    private static func failure<T>(_ error: any Error, making type: T.Type, in path: [DependencyKey]) -> InjectionError
    {
        if let error = error as? InjectionError { return error }
        let key = DependencyKey(type)
        return .factoryFailed(key, path: path + [key], underlying: error)
    }
}
