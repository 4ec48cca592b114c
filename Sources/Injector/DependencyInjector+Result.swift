extension DependencyInjector {
    /// ``resolve(_:name:)-method`` as a `Result`, for the property wrappers; inlinable, so the
    /// `Result` is built by code specialised for the property's type.
    @inlinable
    func result<T>(_ type: T.Type, name: String?) -> Result<T, InjectionError> {
        do {
            return .success(try resolve(type, name: name))
        } catch {
            return .failure(error)
        }
    }
}
