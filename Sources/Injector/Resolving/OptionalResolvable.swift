/// How a resolve of `T?` finds its value when nothing is registered as `T?` itself: the `T`
/// registered under the same name, or `nil` when there is none. A `T` that is registered but
/// broken (its factory throws, a cycle) throws, as a resolve of `T` would; `nil` means only
/// "not registered", never a failure swallowed. The resolve of `T` is reported to an observer
/// (and `expectNoResolution`) as a resolve of its own, as a forwarded key's target is.
protocol OptionalResolvable {
    static func wrappedValue(from injector: DependencyInjector, name: String?) throws(InjectionError) -> Self
    static func wrappedValue(
        from injector: AsyncDependencyInjector,
        name: String?,
        after frames: AsyncResolutionContext.Frames
    ) async throws(InjectionError) -> Self
}

extension Optional: OptionalResolvable {
    static func wrappedValue(from injector: DependencyInjector, name: String?) throws(InjectionError) -> Self {
        let key = DependencyKey(Wrapped.self, name: name)
        guard let value = try injector.value(for: key, observed: true) else { return nil }
        return try DependencyInjector.cast(value, to: Wrapped.self, key: key)
    }

    static func wrappedValue(
        from injector: AsyncDependencyInjector,
        name: String?,
        after frames: AsyncResolutionContext.Frames
    ) async throws(InjectionError) -> Self {
        let key = DependencyKey(Wrapped.self, name: name)
        guard let value = try await injector.value(for: key, observed: true, after: frames) else { return nil }
        return try DependencyInjector.cast(value, to: Wrapped.self, key: key)
    }
}
