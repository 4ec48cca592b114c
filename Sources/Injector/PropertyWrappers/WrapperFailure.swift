/// Where a wrapped property was declared, captured by the wrapper's initialiser so that a
/// failure names the property's line rather than the library's.
@usableFromInline
struct DeclarationSite: Sendable {
    let fileID: StaticString
    let line: UInt

    @usableFromInline
    init(fileID: StaticString, line: UInt) {
        self.fileID = fileID
        self.line = line
    }
}

/// Stops the program because a wrapped property that cannot be `nil` was read after its
/// resolution failed.
///
/// This is the one place the library stops a program (a property getter cannot throw). The
/// message is the error's full description; `$property` gives the same error as a value.
func stopReading(_ wrapper: StaticString, declaredAt site: DeclarationSite, after error: InjectionError) -> Never {
    fatalError(
        """
        \(wrapper) property declared at \(site.fileID):\(site.line) was read, but its dependency could not be resolved.
        \(error.description)
        To read it without stopping, check its projected value first: `$property` is a Result.
        """
    )
}

/// A wrapper's failed resolution, with where its property is declared, kept until the property
/// is read.
@usableFromInline
final class WrapperFailure: Sendable {
    let error: InjectionError
    let site: DeclarationSite

    @usableFromInline
    init(_ error: InjectionError, declaredAt site: DeclarationSite) {
        self.error = error
        self.site = site
    }

    /// Stops the program: the property of a `wrapper` was read after this failure.
    func stop(_ wrapper: StaticString) -> Never {
        stopReading(wrapper, declaredAt: site, after: error)
    }
}
