/// The dependencies that have a default value, as properties you declare in extensions.
///
/// ```swift
/// extension InjectedValues {
///     var networkProvider: any NetworkProviding {
///         get { self[NetworkProviderKey.self] }
///         set { self[NetworkProviderKey.self] = newValue }
///     }
/// }
///
/// let network = injector.resolve(\.networkProvider)
/// injector.values.networkProvider = MockNetwork()
/// ```
///
/// A key-path dependency is an ordinary registration, keyed by its ``InjectionKey`` type, so
/// scopes, children, overrides and diagnostics apply. Each property reads one `self[Key.self]`.
public struct InjectedValues {
    private let mode: Mode

    private enum Mode {
        /// Reads resolve from the injector; a read that falls back to the default is recorded
        /// at `readAt` in a test (`nil`: at the registration's line).
        case live(DependencyInjector, readAt: DeclarationSite?)
        /// Reads only record which key the property uses.
        case recording(KeyRecorder)
        /// Reads return these values, by key, resolved beforehand by the actor face (a key
        /// without one, or with `nil`: the default), and note the keys they read.
        case resolved([DependencyKey: Any], reads: KeyRecorder)
    }

    init(injector: DependencyInjector, readAt site: DeclarationSite? = nil) {
        mode = .live(injector, readAt: site)
    }

    private init(recorder: KeyRecorder) {
        mode = .recording(recorder)
    }

    /// Values whose reads return `values`, noting in `reads` the keys read (see `Mode.resolved`).
    private init(resolved values: [DependencyKey: Any], reads: KeyRecorder) {
        mode = .resolved(values, reads: reads)
    }

    /// The property at `keyPath` read from `values` (the actor face's, resolved beforehand),
    /// and the keys it read: a property that reads a key only on some values (`flag ? self[A.self]
    /// : self[B.self]`) reads keys that a read with the defaults did not.
    static func read<Value>(_ keyPath: KeyPath<InjectedValues, Value>, from values: [DependencyKey: Any])
        -> (value: Value, keys: [DependencyKey])
    {
        let reads = KeyRecorder()
        let value = InjectedValues(resolved: values, reads: reads)[keyPath: keyPath]
        return (value, reads.keys)
    }

    /// `nil`, for the default, after `key`'s registration failed with `error`: a read cannot
    /// throw, but the running test hears of it (nothing fails silently), at the read (`site`)
    /// or else at the failing registration's line, unless `verify()`, which reports it
    /// itself, is running. A strict scope's refusal is on the test already, once, at the
    /// registration's line (see `DependencyInjector.refusal`).
    static func fallingBack(
        from key: DependencyKey,
        after error: InjectionError,
        readAt site: DeclarationSite?,
        in injector: DependencyInjector
    ) -> Any? {
        if case .notProvidedInTest = error { return nil }
        if Verification.wrapperFailures == nil, let recorder = TestIssueRecorder.currentOrScope(of: injector) {
            recorder.record(
                "Injector could not resolve \(key), so its default value is used instead.\n\(error)",
                at: site ?? injector.lookup(key)?.entry.site.declarationSite)
        }
        return nil
    }

    /// The value registered for `key` in the injector (or its ancestors), or
    /// `key.defaultValue` when there is none or its factory fails. Setting registers the value.
    public subscript<Key: InjectionKey>(key: Key.Type) -> Key.Value {
        get {
            let value: Any?
            switch mode {
            case .live(let injector, let site):
                do {
                    value = try injector.value(for: DependencyKey(key), observed: true)
                } catch {
                    value = Self.fallingBack(from: DependencyKey(key), after: error, readAt: site, in: injector)
                }
            case .recording(let recorder):
                recorder.record(key)
                value = nil
            case .resolved(let resolved, let reads):
                reads.record(key)
                value = resolved[DependencyKey(key)]
            }
            // Unwrapped first: cast to an optional `Key.Value`, a `nil` `Any?` would be a
            // `.some(nil)` and hide the default. A registered `nil` is `.some(nil)` here, a value.
            guard let value else { return key.defaultValue }
            return value as? Key.Value ?? key.defaultValue
        }
        nonmutating set {
            switch mode {
            case .live(let injector, _):
                injector.store(instance: newValue, for: DependencyKey(key), fileID: nil, line: 0)
            case .recording(let recorder):
                recorder.record(key)
            case .resolved:
                break  // never written: the actor face only reads through it
            }
        }
    }

    /// The key a registration of `keyPath` stores under: the one key its property reads, whose
    /// value is the property's (`\.network`, not `\.network.session`, which reads the same key
    /// and would store a session where a network belongs). `nil`, and reported, for another.
    static func registeredKey<Value>(
        for keyPath: KeyPath<InjectedValues, Value>,
        at site: DeclarationSite
    ) -> DependencyKey? {
        let recorder = recorded(by: keyPath)
        if recorder.keys.count == 1, let read = recorder.valueTypes.first, read == Value.self {
            return recorder.keys[0]
        }
        let read =
            switch (recorder.keys.first, recorder.valueTypes.first) {
            case (let key?, let valueType?) where recorder.keys.count == 1:
                "reads \(key.typeName), whose value is \(DependencyKey.name(of: valueType)), not "
                    + DependencyKey.name(of: Value.self)
            case (_?, _):
                "reads \(recorder.keys.count) keys: " + recorder.keys.map(\.typeName).joined(separator: ", ")
            case (nil, _):
                "reads no InjectionKey"
            }
        // Not `\(keyPath)`: a key path prints its accessors' addresses, not its properties.
        let message =
            "Injector did not register the key path of \(DependencyKey.name(of: Value.self)) at "
            + "\(site.fileID):\(site.line): it is not an injected value's own property (it \(read)). "
            + "To fix: register the property that reads the key itself."
        if let recorder = TestIssueRecorder.currentOrRunningTest {
            recorder.record(message, at: site)
        } else {
            print(message)
        }
        return nil
    }

    /// The recorder of what the property at `keyPath` reads.
    private static func recorded<Value>(by keyPath: KeyPath<InjectedValues, Value>) -> KeyRecorder {
        let recorder = KeyRecorder()
        _ = InjectedValues(recorder: recorder)[keyPath: keyPath]
        return recorder
    }
}

/// Collects the keys an `InjectedValues` property reads, and their value types. Used on one
/// thread, then dropped.
private final class KeyRecorder {
    var keys: [DependencyKey] = []
    var valueTypes: [any Any.Type] = []

    func record<Key: InjectionKey>(_ key: Key.Type) {
        keys.append(DependencyKey(key))
        valueTypes.append(Key.Value.self)
    }
}
