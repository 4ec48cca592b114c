import Injector

/// An object with three `@Inject` properties, as `@Inject` users write them.
final class ImportScreen {
    @Inject var parser: Parser
    @Inject var formatter: Formatter
    @Inject var validator: Validator
}

/// The injector `ExplicitImportScreen` names, and every case of `injectThreeProperties` uses:
/// three singletons, created.
let namedInjector: DependencyInjector = {
    let injector = DependencyInjector()
    injector.register(Parser.self, scope: .singleton) { _ in Parser() }
    injector.register(Formatter.self, scope: .singleton) { _ in Formatter() }
    injector.register(Validator.self, scope: .singleton) { _ in Validator() }
    _ = ResolvedImportScreen(injector: injector)  // creates the singletons
    return injector
}()

/// `ImportScreen` with its injector named, so that no wrapper reads the task-local `current`:
/// what the wrappers cost apart from that read.
final class ExplicitImportScreen {
    @Inject(injector: namedInjector) var parser: Parser
    @Inject(injector: namedInjector) var formatter: Formatter
    @Inject(injector: namedInjector) var validator: Validator
}

/// `ImportScreen` with optional properties: each is `nil` when nothing is registered.
final class OptionalImportScreen {
    @OptionalInject var parser: Parser?
    @OptionalInject var formatter: Formatter?
    @OptionalInject var validator: Validator?
}

/// The same object, built from three direct `resolve` calls.
final class ResolvedImportScreen {
    let parser: Parser?
    let formatter: Formatter?
    let validator: Validator?

    init(injector: DependencyInjector) {
        parser = try? injector.resolve(Parser.self)
        formatter = try? injector.resolve(Formatter.self)
        validator = try? injector.resolve(Validator.self)
    }
}

/// A `@LazyInject` property, read for the first time or again.
final class LazyScreen {
    @LazyInject var logger: Logger
}

/// Initialising an object whose three `@Inject` properties resolve ready singletons, against
/// three direct `resolve`s of the same singletons into stored properties.
func injectThreeProperties() -> Scenario {
    let injector = namedInjector
    let direct = "3 direct resolves"

    return Scenario(
        name: "@Inject x3, owner init",
        cases: [
            .measured(direct) { n in
                for _ in 0..<n { blackHole(ResolvedImportScreen(injector: injector)) }
            },
            // The targets decided for issue 31: a bare `@Inject` reads the task-local `current`
            // (about 30 ns in Swift 6.3) on top of the resolve; one given its injector does not.
            .measured(
                "3 @Inject(injector:) properties, no `current`", baseline: direct,
                target: Target(reference: direct, limit: 1.5)
            ) { n in
                for _ in 0..<n { blackHole(ExplicitImportScreen()) }
            },
            .measured("3 @Inject properties", baseline: direct, target: Target(reference: direct, limit: 2.0)) { n in
                DependencyInjector.$current.withValue(injector) {
                    for _ in 0..<n { blackHole(ImportScreen()) }
                }
            },
            .measured("3 @OptionalInject properties", baseline: direct) { n in
                DependencyInjector.$current.withValue(injector) {
                    for _ in 0..<n { blackHole(OptionalImportScreen()) }
                }
            },
        ]
    )
}

/// A resolve of a transient whose factory builds an object with three `@Inject` properties
/// (ready singletons), against one whose factory resolves the same three directly: what a
/// factory-built object's wrappers cost, the check that none of them failed included.
func resolveObjectWithThreeWrappers() -> Scenario {
    let injector = DependencyInjector()
    injector.register(Parser.self, scope: .singleton) { _ in Parser() }
    injector.register(Formatter.self, scope: .singleton) { _ in Formatter() }
    injector.register(Validator.self, scope: .singleton) { _ in Validator() }
    injector.register(ResolvedImportScreen.self) { r in ResolvedImportScreen(injector: r) }
    injector.register(ImportScreen.self) { _ in ImportScreen() }
    _ = try? injector.resolve(ResolvedImportScreen.self)  // creates the singletons
    let direct = "factory with 3 resolves"

    return Scenario(
        name: "resolve, object with 3 @Inject",
        cases: [
            .measured(direct) { n in
                DependencyInjector.$current.withValue(injector) {
                    for _ in 0..<n { blackHole(try? injector.resolve(ResolvedImportScreen.self)) }
                }
            },
            .measured("factory building 3 @Inject properties", baseline: direct) { n in
                DependencyInjector.$current.withValue(injector) {
                    for _ in 0..<n { blackHole(try? injector.resolve(ImportScreen.self)) }
                }
            },
        ]
    )
}

/// `@LazyInject`: the first read resolves (a ready singleton) and keeps it; later reads return
/// what was kept.
func lazyInjectReads() -> Scenario {
    let injector = injectorWithReadyLogger()
    let screen = DependencyInjector.$current.withValue(injector) { LazyScreen() }
    _ = screen.logger
    let resolve = "resolve (ready singleton)"

    return Scenario(
        name: "@LazyInject reads",
        cases: [
            .measured(resolve) { n in
                for _ in 0..<n { blackHole(try? injector.resolve(Logger.self)) }
            },
            // The target decided for issue 43 (issue 31's 3x dropped). A first read of a ready
            // value keeps the injector's own box with one atomic step; the rest is the owner,
            // the wrapper's box and word, the read of the task-local `current` that `@Inject`
            // pays too, and the thread-local read that tells whether a builder checks it.
            .measured(
                "owner init + first read", baseline: resolve, target: Target(reference: resolve, limit: 6.0)
            ) { n in
                DependencyInjector.$current.withValue(injector) {
                    for _ in 0..<n { blackHole(LazyScreen().logger) }
                }
            },
            .measured("later read", baseline: resolve, target: Target(reference: resolve, limit: 1.2)) { n in
                for _ in 0..<n { blackHole(screen.logger) }
            },
        ]
    )
}

/// An object holding the same singleton in a stored property and in each wrapper.
final class WrappedLogger {
    let stored = Logger()
    @Inject var injected: Logger
    @OptionalInject var optional: Logger?
    @LazyInject var lazy: Logger
    @Provider var provided = Logger()
}

/// An injector whose `Logger` singleton has been created.
func injectorWithReadyLogger() -> DependencyInjector {
    let injector = DependencyInjector()
    injector.register(Logger.self, scope: .singleton) { _ in Logger() }
    _ = try? injector.resolve(Logger.self)
    return injector
}

/// Reading a property that a wrapper filled, against reading a stored property: what a
/// method that uses its dependencies pays.
func wrapperReads() -> Scenario {
    let owner = DependencyInjector.$current.withValue(injectorWithReadyLogger()) { WrappedLogger() }
    _ = owner.lazy
    let stored = "stored property"

    return Scenario(
        name: "wrapper reads",
        cases: [
            .measured(stored) { n in
                for _ in 0..<n { blackHole(owner.stored) }
            },
            .measured("@Inject", baseline: stored) { n in
                for _ in 0..<n { blackHole(owner.injected) }
            },
            .measured("@OptionalInject", baseline: stored) { n in
                for _ in 0..<n { blackHole(owner.optional) }
            },
            .measured("@LazyInject", baseline: stored) { n in
                for _ in 0..<n { blackHole(owner.lazy) }
            },
            .measured("@Provider", baseline: stored) { n in
                for _ in 0..<n { blackHole(owner.provided) }
            },
        ]
    )
}
