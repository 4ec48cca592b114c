/// Where a wrapped property was declared, so that a failure names the property's line.
@usableFromInline
package struct DeclarationSite: Sendable {
    package let fileID: StaticString
    /// The full path, for a test report that links to the line; `nil` where it is not needed.
    package let filePath: StaticString?
    package let line: UInt
    /// What `#function` gives in the declaration: for a stored property, the simple name of
    /// the type that declares it (`PlaceOrderUseCase`); `nil` where it is not needed.
    let context: StaticString?

    @usableFromInline
    init(fileID: StaticString, filePath: StaticString? = nil, line: UInt, context: StaticString? = nil) {
        self.fileID = fileID
        self.filePath = filePath
        self.line = line
        self.context = context
    }

    /// `UseCase.swift:25 (in PlaceOrderUseCase)`: where, for a message.
    var location: String {
        context.map { "\(fileID):\(line) (in \($0))" } ?? "\(fileID):\(line)"
    }
}

/// Stops the program because a wrapped property was read after its resolution failed: the
/// one place the library stops a program (a property getter cannot throw).
func stopReading(
    _ wrapper: StaticString,
    declaredAt site: DeclarationSite,
    after error: InjectionError,
    searched: String
) -> Never {
    fatalError(
        """
        \(wrapper) property declared at \(site.location) was read, but its dependency could not be resolved.
        \(error.description)
        Searched: \(searched).
        \(stopAdvice(for: wrapper))
        """
    )
}

/// How to get the error of a `wrapper` property instead of a stop, after the error's own
/// "To fix:" line: what `make` checks of it.
private func stopAdvice(for wrapper: StaticString) -> String {
    if "\(wrapper)" == "@Provider" {
        return """
            A scoped @Provider property resolves its value when it is read, which `try injector.make { … }` \
            does not check: read `$property` (a Result) where it may fail.
            """
    }
    if "\(wrapper)" == "@LazyInject" {
        return """
            `try injector.make { … }` (and a factory that builds the object) checks that a @LazyInject \
            property can be resolved, but its factory runs on the first read: read `$property` (a Result) \
            where it may fail.
            """
    }
    return """
        To get this error instead of a stop, create the object with `try injector.make { … }`, which \
        throws it, or check `$property` (a Result) before reading.
        """
}

/// A wrapper's failed resolution, kept until the property is read.
///
/// An `@Inject` wrapper initialised while a builder runs (a factory, or a checked construction,
/// `DependencyInjector.make`) is captured by the innermost one, which throws the failure when
/// it returns (see `ResolutionContext.capture`, `AsyncWrapperCapture.capture`): an object the injector
/// builds is built whole or not at all. Elsewhere, the failure is reported to the test scope.
@usableFromInline
final class WrapperFailure: Sendable {
    @usableFromInline let error: InjectionError
    let site: DeclarationSite
    /// Which injector the wrapper searched (see `DependencyInjector.searchedDescription`).
    let searched: String

    /// The failure of an `@Inject` property declared at `site`, which searched `injector`:
    /// captured by the builder running, if any, else reported to the test scope.
    @usableFromInline
    convenience init(
        _ error: InjectionError,
        declaredAt site: DeclarationSite,
        searching injector: DependencyInjector
    ) {
        self.init(error, declaredAt: site, searched: injector.searchedDescription)
        if captureByBuilder() { return }
        // A refusal deeper in the chain is on the test already, at the registration's line;
        // one of the property's own key, here, at the property (see `DependencyInjector.refusal`).
        if case .notProvidedInTest = error, error.path.count > 1 { return }
        TestIssueRecorder.report(
            error, of: "@Inject", declaredAt: site, searched: searched,
            to: TestIssueRecorder.recorder(for: error, searching: injector))
    }

    private init(_ error: InjectionError, declaredAt site: DeclarationSite, searched: String) {
        self.error = error
        self.site = site
        self.searched = searched
    }

    /// The failure a `@LazyInject` property declared at `site` would meet on its first read
    /// from `injector`, found without running a factory (see
    /// `DependencyInjector.failureBeforeRunning`), when a builder runs here to throw it: `nil`
    /// when the read would find something, or no builder runs (a property of an object made
    /// by hand may be registered for before its first read, so nothing is reported then).
    @inline(__always)
    static func lazyFailure<Value>(
        of type: Value.Type,
        name: String?,
        declaredAt site: DeclarationSite,
        searching injector: DependencyInjector
    ) -> WrapperFailure? {
        guard ResolutionContext.withCurrent(\.isBuilding) || AsyncWrapperCapture.isBuilding else { return nil }
        return checkedLazyFailure(of: Value.self, name: name, declaredAt: site, searching: injector)
    }

    /// `lazyFailure` once a builder runs: the check, and the failure handed to the builder.
    @inline(never)
    private static func checkedLazyFailure<Value>(
        of type: Value.Type,
        name: String?,
        declaredAt site: DeclarationSite,
        searching injector: DependencyInjector
    ) -> WrapperFailure? {
        guard let error = injector.failureBeforeRunning(Value.self, name: name) else { return nil }
        let failure = WrapperFailure(error, declaredAt: site, searched: injector.searchedDescription)
        return failure.captureByBuilder() ? failure : nil
    }

    /// Hands this failure to the innermost builder running on this thread or in this task,
    /// which throws it when it returns; `false` when none runs.
    private func captureByBuilder() -> Bool {
        ResolutionContext.current.capture(self) || AsyncWrapperCapture.capture(self)
    }

    /// Stops the program: the property of a `wrapper` was read after this failure.
    @usableFromInline
    func stop(_ wrapper: StaticString) -> Never {
        stopReading(wrapper, declaredAt: site, after: error, searched: searched)
    }
}

/// A failed `@Inject` wrapper that a builder captured, to throw when it returns.
struct CapturedWrapperFailure {
    let failure: WrapperFailure
    /// Where in the error's path the key the property asked for is: the number of factories
    /// running on the thread when it failed (in a task, of the runs whose keys the path starts with).
    let pathIndex: Int

    /// The error the builder throws, having made `value` (`nil`: nothing to search): the
    /// wrapper's, with the property named at its step of the path, and `keys` (an async
    /// builder's own path, which the wrapper's sync resolve may not have known) before it.
    func error(building value: Any?, after keys: [DependencyKey] = []) -> InjectionError {
        let found = value.flatMap { failure.property(in: $0) }
        let property = InjectedProperty(declaredAt: failure.site, ownerType: found?.owner, name: found?.name)
        return failure.error.requested(through: property, at: pathIndex).after(keys)
    }
}

/// A wrapper whose resolution may have failed; lets `WrapperFailure.property(in:)` recognise
/// one among an object's stored properties, whatever its value type.
protocol FailureHolding {
    var heldFailure: WrapperFailure? { get }
}

extension WrapperFailure {
    /// The stored property that holds this failure, in `value` or in what it holds a few levels
    /// down (an array of objects, an object's model): the type that declares it, and its
    /// name. Only on failure: reflection is slow, hence the bounds.
    func property(in value: Any) -> (owner: any Any.Type, name: String)? {
        var level: [Any] = [value]
        var seen: Set<ObjectIdentifier> = []
        var visited = 0
        for _ in 0..<3 {
            var next: [Any] = []
            for value in level {
                if type(of: value) is AnyObject.Type, !seen.insert(ObjectIdentifier(value as AnyObject)).inserted {
                    continue
                }
                var mirror: Mirror? = Mirror(reflecting: value)
                while let current = mirror {
                    for child in current.children {
                        visited += 1
                        if let holder = child.value as? any FailureHolding, holder.heldFailure === self,
                            let label = child.label
                        {
                            // The backing storage of `users` is `_users`.
                            return (current.subjectType, label.hasPrefix("_") ? String(label.dropFirst()) : label)
                        }
                        next.append(child.value)
                    }
                    mirror = current.superclassMirror
                }
                if visited > 512 { return nil }
            }
            level = next
        }
        return nil
    }
}
