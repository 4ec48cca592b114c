extension DependencyInjector {
    /// ``resolve(_:name:)`` as a `Result`, for the property wrappers.
    func result<T>(_ type: T.Type, name: String?) -> Result<T, InjectionError> {
        do {
            return .success(try resolve(type, name: name))
        } catch {
            return .failure(error)
        }
    }
}
