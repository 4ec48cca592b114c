import Dispatch

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

    /// What `@OptionalInject` holds: the value registered for `type` under `name`; `nil` when
    /// nothing is; the error when it is registered but cannot be resolved. Inlinable, like
    /// `result(_:name:)`.
    @inlinable
    func optionalResult<T>(_ type: T.Type, name: String?) -> Result<T?, InjectionError> {
        // A ready value of this injector's own is registered: read as `resolve` reads it.
        if let found = ready.slot(for: ObjectIdentifier(T.self), name: name) {
            do {
                return .success(try found.value(as: T.self, name: name, in: self))
            } catch {
                return .failure(error)
            }
        }
        // Checked first: absence, the expected case, builds no error.
        guard isRegistered(T.self, name: name) else { return optionalResultOfUnregistered(T.self, name: name) }
        // As `@Inject`'s: a refusal of the property's own key is the wrapper's to record.
        let outcome: Result<T, InjectionError>
        do {
            outcome = .success(try resolveLockedForWrapper(T.self, name: name))
        } catch {
            outcome = .failure(error)
        }
        switch outcome {
        case .success(let value):
            return .success(value)
        case .failure(.notRegistered(let key, _, _)) where key == DependencyKey(T.self, name: name):
            return .success(nil)  // unregistered between the check and the resolve
        case .failure(let error):
            return .failure(error)
        }
    }

    /// `optionalResult(_:name:)` where nothing is registered for `type` under `name`: `nil`,
    /// or, in what the actor face's factory builds, what the injector bound outside it has.
    /// Observed, the absence is reported (and, inside a factory, is an edge of the graph) as a
    /// resolve of `T?` with nothing registered reports it, without resolving anything: every
    /// resolve reaches the hook, a wrapper's too.
    @usableFromInline
    func optionalResultOfUnregistered<T>(_ type: T.Type, name: String?) -> Result<T?, InjectionError> {
        let key = DependencyKey(T?.self, name: name)
        let context = ResolutionContext.current
        if let observer = instrument(key, resolvedBy: context.resolverOnEitherFace) {
            let now = DispatchTime.now().uptimeNanoseconds
            notify(observer, of: key, resolvers: context.pathOnEitherFace, outcome: .cached, since: now, in: context)
        }
        return optionalResultOutsideActorFace(T.self, name: name)
    }
}
