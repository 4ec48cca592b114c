extension DependencyInjector {
    /// ``resolve(_:name:)-method`` as a `Result`, for the property wrappers.
    ///
    /// Inlinable, like the wrappers' initialisers, so that the `Result` is built by code
    /// specialised for the property's type in the user's module.
    @inlinable
    func result<T>(_ type: T.Type, name: String?) -> Result<T, InjectionError> {
        do {
            return .success(try resolve(type, name: name))
        } catch {
            return .failure(error)
        }
    }
}
