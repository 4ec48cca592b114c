extension InjectionError: CustomStringConvertible {
    /// A message for a person: what was asked for, the chain of resolutions that led there,
    /// what is registered instead, and a "To fix:" line.
    ///
    /// One line each for what failed, the resolution path, each suggestion and the fix
    /// (long lines are shown wrapped here):
    ///
    /// ```text
    /// Injector could not resolve any MyApp.PaymentService: nothing is registered for it.
    /// Resolution path: MyApp.App → MyApp.Checkout → any MyApp.PaymentService
    /// Suggestion: MyApp.StripePayments is registered and conforms to any MyApp.PaymentService;
    ///     register it as that type: `register(value as any MyApp.PaymentService)` or
    ///     `register(value, as: (any MyApp.PaymentService).self)`.
    /// To fix: register any MyApp.PaymentService before resolving it, e.g.
    ///     `injector.register((any MyApp.PaymentService).self) { r in … }`.
    /// ```
    public var description: String {
        var lines: [String]
        switch self {
        case .notRegistered(let key, let path, let suggestions):
            // An empty path: a reset's, which resolved nothing.
            lines = ["Injector could not \(path.isEmpty ? "reset" : "resolve") \(key): nothing is registered for it."]
            lines += Self.pathLine(path)
            lines += suggestions.map { "Suggestion: " + Self.sentence(for: $0, requested: key) }
            lines.append("To fix: " + Self.likelyFix(for: key, suggestions: suggestions, resolving: !path.isEmpty))
        case .circularDependency(let path):
            lines = [
                "Injector found a circular dependency: \(Self.arrows(path)).",
                "To fix: break the cycle: let one of these types resolve the next one later "
                    + "(with @LazyInject, or by resolving inside a method) instead of in its factory.",
            ]
        case .factoryFailed(let key, let path, let explained as any ExplainedFailure):
            lines = ["Injector could not resolve \(key): \(explained.problem)."]
            lines += Self.pathLine(path)
            lines.append("To fix: \(explained.fix).")
        case .factoryFailed(let key, let path, let underlying as CancellationError):
            // A wait for a creation, cancelled (the creation goes on), or a factory that stopped.
            lines = [
                "Injector could not resolve \(key): the resolve was cancelled (\(String(reflecting: underlying)))."
            ]
            lines += Self.pathLine(path)
            lines.append(
                "To fix: nothing, if its task was meant to stop (a creation it waited for goes on for the others); "
                    + "otherwise, find what cancelled the task.")
        case .factoryFailed(let key, let path, let underlying):
            // A decorator's or a hook's failure is the factory's run's: which of them threw is not known here.
            lines = [
                "Injector could not resolve \(key): its factory, a decorator or an initCompleted hook threw "
                    + "\(String(reflecting: underlying))."
            ]
            lines += Self.pathLine(path)
            lines.append(
                "To fix: make what is registered for \(key) (its factory, decorators, initCompleted hooks) succeed; "
                    + "the error above is its own.")
        case .requiresMainActor(let key, let path):
            lines = [
                // Which of them runs there is not known here: the factory, or a hook (or a test
                // double, a preview stand-in, which stand for the factory).
                "Injector could not resolve \(key): its factory or an initCompleted hook of it runs on the "
                    + "main actor, and it was resolved from another thread."
            ]
            lines += Self.pathLine(path)
            // Thrown on either face: each fix says where it works. The actor face runs the
            // synchronous factory off the main actor wherever its resolve is awaited from.
            let fixes =
                path.count > 1
                ? "on a DependencyInjector, resolve it from main-actor code (for example inside "
                    + "`await MainActor.run { … }`), or register it as a singleton and resolve it once on the main "
                    + "actor: every thread then gets the created value. An AsyncDependencyInjector awaits the main "
                    + "actor for it when it resolves it itself, not for the synchronous factory that needs it (before "
                    + "it in the path), even from main-actor code: register that factory through "
                    + "`synchronous.mainActor` too, and the actor awaits the main actor for it; or make it an "
                    + "async factory that resolves it with `try await r.resolve(…)`; or register \(key.typeName) as "
                    + "a singleton and resolve it once through the actor, from any task: every task then gets the "
                    + "created value."
                : "resolve it from main-actor code (for example inside `await MainActor.run { … }`), "
                    + "or register it as a singleton and resolve it once on the main actor: every thread then gets "
                    + "the created value. (An AsyncDependencyInjector awaits the main actor for it when it resolves "
                    + "it itself, not for a synchronous factory that needs it.)"
            lines.append("To fix: " + fixes)
        case .resolutionTooDeep(let path, let stackSize):
            let key = path.last.map { "\($0)" } ?? "a dependency"
            lines = [
                "Injector could not resolve \(key): the chain of factories that needs it is \(path.count) deep, "
                    + "too deep for this thread's stack (\(Self.size(stackSize)))."
            ]
            lines += Self.pathLine(path)
            lines.append(
                "To fix: resolve it on a thread with a larger stack (e.g. a `Thread` whose `stackSize` is 4 MB), "
                    + "or shorten the chain: let a type resolve what it needs later "
                    + "(with @LazyInject, or by resolving inside a method) instead of in its factory.")
        case .notImplemented(let key, let path, let implementation):
            lines = [
                "Injector could not resolve \(key): it is forwarded to the registration of \(implementation) "
                    + "(`implements`), whose value cannot be used as \(key.typeName)."
            ]
            lines += Self.pathLine(path)
            // A concrete type is no conformance to add: one value cannot be of two concrete types.
            lines.append(
                DependencyKey.isExistential(key.type)
                    ? "To fix: make \(implementation.typeName) conform to \(key.typeName), "
                        + "or take \(key.typeName) out of that registration's `implements(…)`."
                    : "To fix: take \(key.typeName) out of that registration's `implements(…)` "
                        + "(it forwards to protocols the value conforms to, or to a class it inherits from), "
                        + "and register \(key.typeName) with a factory of its own.")
        case .unknownScope(let scope):
            lines =
                scope.isKept
                ? [
                    "Injector could not reset the scope \"\(scope)\": no registration in the injector "
                        + "or its ancestors uses it.",
                    "To fix: check the scope's name, or reset the injector whose registrations use it.",
                ]
                : [
                    "Injector could not reset the scope \"\(scope)\": it keeps no values to reset "
                        + "(each resolve makes new ones).",
                    "To fix: reset a scope that keeps values: `.singleton`, `.weak`, `.scoped`, or one of `.named(…)`.",
                ]
        case .notResettable(let key, let scope?) where key.name == nil && key.type is any ServiceCollection.Type:
            // Registering the array with a scope would replace the collection (see `register(into:)`).
            lines = [
                "Injector could not reset \(key): none of its elements keeps a value (each resolve makes new ones).",
                "To fix: there is nothing to reset for it; to keep and reset its elements' values, register them "
                    + "with a scope that keeps one (`register(into: …, scope: .singleton)`); its own scope, "
                    + "\(scope), stays.",
            ]
        case .notResettable(let key, let scope?):
            lines = [
                "Injector could not reset \(key): its scope, \(scope), keeps no value "
                    + "(each resolve makes a new one).",
                "To fix: there is nothing to reset for it; to keep and reset a value, register it with a scope "
                    + "that keeps one: `.singleton`, `.weak`, `.scoped`, or one of `.named(…)`.",
            ]
        case .notResettable(let key, nil):
            lines = [
                "Injector could not reset \(key): it is a registered instance, not a value a factory made.",
                "To fix: register the new instance in its place (`register(newValue)`), "
                    + "or register a factory with a scope that keeps its value, and reset that.",
            ]
        case .sealed(let key):
            lines = [
                "Injector refused to change the registration of \(key): the injector is sealed.",
                "To fix: register it before calling seal(), or override it in a child injector "
                    + "(`injector.child()`, `withOverrides`), which is not sealed.",
            ]
        case .notProvidedInTest(let key, let path, let site):
            lines = [
                "Injector refused to resolve \(key) in a strict test scope: the test did not provide it, "
                    + "and the app's registration (\(site)) is not allowed in tests."
            ]
            lines += Self.pathLine(path)
            if let name = key.name, CollectionContents.isElementName(name) {
                // An element of a collection, named by the library: no one registers under that name.
                lines.append(
                    "To fix: allow the element type in tests (`allowing: [\(key.typeExpression)]` on the test scope), "
                        + "or declare the collection `.replacing` in the test and register the test's own elements.")
            } else if site.shape == .factoryTakingArguments {
                // Its arguments reach only a factory that takes them: not an instance stand-in,
                // and a registration whose factory takes arguments returns nothing to call `.inTests` on.
                lines.append(
                    "To fix: register a stand-in factory that takes the same arguments in the test "
                        + "(`$0.register(\(key.typeExpression)\(key.nameArgument)) { r, … in … }` in its `.injecting` "
                        + "closure), or allow the real one in tests (`allowing: [\(key.typeExpression)]` on the test scope)."
                )
            } else if key.type is any InjectionKey.Type {
                // A key path's key: no value is registered as the key's type, and a key path's
                // registration has no `.allowedInTests()`; the property's name is not known here.
                lines.append(
                    "To fix: set the key path's value in the test's injector (`$0.values.… = …`, or "
                        + "`$0.register(\\.…) { _ in … }`, in its `.injecting` closure), "
                        + "or allow the app's in tests (`allowing: [\(key.typeExpression)]` on the test scope).")
            } else if site.shape == .instance {
                // A value registered as it is returns nothing to call `.inTests` on.
                lines.append(
                    "To fix: register a stand-in for it in the test (`$0.register(… as \(key.typeName)\(key.nameArgument))` in "
                        + "its `.injecting` closure), or allow the real one in tests "
                        + "(`allowing: [\(key.typeExpression)]` on the test scope).")
            } else {
                lines.append(
                    "To fix: register a stand-in for it in the test (`$0.register(… as \(key.typeName)\(key.nameArgument))` in "
                        + "its `.injecting` closure; `$0.mainActor.register(\(key.typeExpression)\(key.nameArgument)) { _ in … }` "
                        + "where the stand-in is main-actor code, as in a target whose default isolation is the main actor), "
                        + "give the registration one for every test (`.inTests { r in … }`), "
                        + "or allow the real one in tests (`.allowedInTests()` on the registration, "
                        + "or `allowing: [\(key.typeExpression)]` on the test scope).")
            }
        case .outsideScope(let key, let path):
            lines = [
                "Injector could not resolve \(key): it is scoped (one value per opened scope), "
                    + "and this resolve did not run in an opened scope."
            ]
            lines += Self.pathLine(path)
            lines.append(
                "To fix: resolve it from an opened scope (`let request = injector.openScope()`, then "
                    + "`request.resolve(\(key.typeExpression)\(key.nameArgument))`; a test scope is one too), "
                    + "or register it with another scope.")
        case .captiveDependency(let key, let path, let holder, let holderScope):
            lines = [
                "Injector refused to give \(key) (scoped: one value per opened scope) to \(holder) "
                    + "(\(holderScope)): \(holder.typeName) would keep it after its scope ends "
                    + "(a captive dependency)."
            ]
            lines += Self.pathLine(path)
            // An argument cache has no scope to change: its fix is to keep nothing.
            let keepLess =
                holderScope.isArgumentCaching
                ? "register \(holder.typeName) without `caching:` (a new value on each resolve)"
                // `.scoped` alone fails where no scope is open (`outsideScope`), as in a plain child.
                : "make \(holder.typeName) `.scoped` too (resolved in an opened scope)"
            lines.append(
                "To fix: \(keepLess), or let it ask for \(key.typeName) when it needs one "
                    + "(in the method that needs it, from the request's injector: the one withScope passes, "
                    + "`current` inside it; a handle it was given when built resolves from the app), "
                    + "or give \(key.typeName) a lifetime as long as \(holder.typeName)'s.")
        case .closed(let key, let path):
            lines = [
                "Injector could not resolve \(key): the injector that would keep it has been closed, "
                    + "and builds and keeps nothing more."
            ]
            lines += Self.pathLine(path)
            lines.append(
                "To fix: resolve it before calling close(), or from an injector that is still open "
                    + "(open a new scope for new work).")
        case .notProvidedByScope(let key, let path, let site):
            lines = [
                "Injector could not resolve \(key): it is declared, at \(site), as a value that each opened "
                    + "scope provides, and the scope this resolve ran in did not provide one."
            ]
            lines += Self.pathLine(path)
            lines.append(
                "To fix: register it in the scope when you open it: "
                    + "`let request = injector.openScope(); request.register(value as \(key.typeName)\(key.nameArgument))`; "
                    + "in a test, in the test's scope (`$0.register(value as \(key.typeName)\(key.nameArgument))` "
                    + "in its `.injecting` closure, or in `withOverrides`)."
            )
        case .argumentMismatch(let key, let path, let expected, let given):
            let takes =
                expected.isEmpty ? "takes no arguments" : "takes arguments (\(expected.joined(separator: ", ")))"
            let passed = given.isEmpty ? "none were passed" : "the resolve passed (\(given.joined(separator: ", ")))"
            lines = ["Injector could not resolve \(key): its factory \(takes), but \(passed)."]
            lines += Self.pathLine(path)
            lines.append(
                expected.isEmpty
                    ? "To fix: resolve it without arguments, `resolve(\(key.typeExpression)\(key.nameArgument))`."
                    : "To fix: pass arguments of exactly those types, in that order: "
                        + "`resolve(\(key.typeExpression)\(key.nameArgument), arguments: …)`."
            )
        }
        return lines.joined(separator: "\n")
    }

    /// `A → B → C`; a key requested through a property is preceded by it, in place of its
    /// owner's key when that comes just before: `A.b (A.swift:3) → B`.
    private static func arrows(_ path: [DependencyKey]) -> String {
        var steps: [String] = []
        for (index, key) in path.enumerated() {
            if let property = key.property {
                if index > 0, property.isDeclared(by: path[index - 1]) { steps.removeLast() }
                steps.append(property.description)
            }
            steps.append(key.description)
        }
        return steps.joined(separator: " → ")
    }

    /// A path of one key says nothing the first line has not said, unless a property asked
    /// for it. A long path shows its first and last few keys: where the chain starts and where
    /// it failed.
    private static func pathLine(_ path: [DependencyKey]) -> [String] {
        guard path.count > 1 || path.first?.property != nil else { return [] }
        let shown = 4
        guard path.count > 10 else { return ["Resolution path: \(arrows(path))"] }
        let head = arrows(Array(path.prefix(shown)))
        let tail = arrows(Array(path.suffix(shown)))
        return ["Resolution path: \(head) → … \(path.count - 2 * shown) more … → \(tail)"]
    }

    /// `bytes` for a person: "512 KB", "8 MB".
    private static func size(_ bytes: Int) -> String {
        bytes >= 1 << 20 && bytes.isMultiple(of: 1 << 20) ? "\(bytes >> 20) MB" : "\((bytes + 512) >> 10) KB"
    }

    /// The "To fix" of a missing key: a registered name within two edits of the requested one
    /// first (a typo is likelier than a missing registration), then the registration; for a
    /// collection or map, an element or a declaration.
    private static func likelyFix(for key: DependencyKey, suggestions: [Suggestion], resolving: Bool) -> String {
        if case .registeredBelowBuilder(let builder)? = suggestions.first {
            return "let \(builder.typeName) live no longer than what it needs (see the suggestion above)."
        }
        if case .registeredBelowScope(let builder)? = suggestions.first {
            return "register \(key.typeName) in the opened scope itself (`request.register(…)`), or where "
                + "\(builder.typeName) is registered."
        }
        if key.name == nil, let collection = key.type as? any ServiceCollection.Type {
            // Registering the array itself would replace the collection (see `register(into:)`):
            // what is missing is an element, or the declaration that lets it be empty.
            return "add an element to \(key), e.g. `injector.\(collection.elementRegistration) { r in … }`, "
                + "or declare it if it may be empty: `injector.declareCollection(\(key.typeExpression))`."
        }
        var arguments: [String] = []
        for case .registerTakingArguments(let types) in suggestions { arguments = types }
        let register =
            "register \(key) \(resolving ? "before resolving it" : "first"), e.g. "
            + "\(registrationExample(for: key, arguments: arguments))."
        guard let name = key.name, case .otherNames(let names, _)? = suggestions.first,
            case let closest?? = names.first
        else { return register }
        var distance = EditDistance(to: name)
        guard distance(closest, limit: 2) != nil else { return register }
        return "resolve it with the name \"\(closest)\", which is registered (a typo?), or \(register)"
    }

    /// A registration of `key` to copy, its factory taking the `arguments` the resolve passed.
    private static func registrationExample(for key: DependencyKey, arguments: [String]) -> String {
        let parameters =
            switch arguments.count {
            case 0: "r"
            case 1: "(r, argument: \(arguments[0]))"
            default:
                "(r, " + arguments.indices.map { "argument\($0 + 1): \(arguments[$0])" }.joined(separator: ", ") + ")"
            }
        return "`injector.register(\(key.typeExpression)\(key.nameArgument)) { \(parameters) in … }`"
    }

    private static func sentence(for suggestion: Suggestion, requested key: DependencyKey) -> String {
        let name = key.nameArgument
        switch suggestion {
        case .otherNames, .unlistedRegistrations, .registerTakingArguments, .registeredBelowScope:
            return suggestion.description
        case .conformingRegistration(let registered):
            return "\(registered) is registered and conforms to \(key.typeName); register it as that type: "
                + "`register(value as \(key.typeName)\(name))` or `register(value, as: \(key.typeExpression)\(name))`."
        case .registeredAsSupertype(let registered):
            return
                "\(registered) is registered and holds a value of type \(key.typeName); resolve \(registered) instead, "
                + "or register the value as \(key.typeName) too: `register(value, as: \(key.typeExpression)\(name))`."
        case .sameSimpleName(let registered):
            return "\(registered) is registered; it has the same simple name as \(key.typeName) but is another type."
        case .possiblyConforming(let registered, _):
            return "\(registered) is registered with a factory; if it conforms to \(key.typeName), add "
                + "\(Suggestion.implementsCall(of: registered, answering: key)) to its registration."
        case .registeredBelowBuilder(let builder):
            // `.scoped` alone fails where the resolve ran in a plain child (`outsideScope`): it
            // needs an opened scope, which the message says; a transient needs none.
            return suggestion.description + " Make \(builder.typeName) transient (`scope: .transient`): each resolve "
                + "builds it with the registrations of the injector it started from. Or make it `.scoped` (one per "
                + "opened scope) and resolve it in a scope opened with `openScope()` (a plain `child()` opens none) "
                + "that registers \(key.typeName) (`declareScoped(\(key.typeExpression))` where \(builder.typeName) "
                + "is registered declares that each scope provides one). Or register \(key.typeName) where "
                + "\(builder.typeName) is registered."
        }
    }
}

/// An error thrown by a factory the library made (a collection's), whose fix is not in that
/// factory: the message of ``InjectionError/factoryFailed(_:path:underlying:)`` states its
/// problem and its fix instead of "its factory threw".
protocol ExplainedFailure: Error {
    /// What is wrong, completing "Injector could not resolve `key`: ".
    var problem: String { get }
    /// What to do, completing "To fix: ".
    var fix: String { get }
}
