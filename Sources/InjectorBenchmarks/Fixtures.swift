// The services the scenarios resolve: small final classes, as most injected services are.

final class Logger: Sendable {}

final class Parser: Sendable {}
final class Formatter: Sendable {}
final class Validator: Sendable {}

/// A transient with three transient dependencies.
final class Importer: Sendable {
    let parser: Parser
    let formatter: Formatter
    let validator: Validator

    init(parser: Parser, formatter: Formatter, validator: Validator) {
        self.parser = parser
        self.formatter = formatter
        self.validator = validator
    }
}
