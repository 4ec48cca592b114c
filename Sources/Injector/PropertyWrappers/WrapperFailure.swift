/// Where a wrapped property was declared, so that a failure names the property's line.
@usableFromInline
package struct DeclarationSite: Sendable {
    package let fileID: StaticString
    /// The full path, for a test report that links to the line; `nil` where it is not needed.
    package let filePath: StaticString?
    package let line: UInt

    @usableFromInline
    init(fileID: StaticString, filePath: StaticString? = nil, line: UInt) {
        self.fileID = fileID
        self.filePath = filePath
        self.line = line
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
        \(wrapper) property declared at \(site.fileID):\(site.line) was read, but its dependency could not be resolved.
        \(error.description)
        Searched: \(searched).
        To read it without stopping, check its projected value first: `$property` is a Result.
        """
    )
}

/// A wrapper's failed resolution, kept until the property is read.
@usableFromInline
final class WrapperFailure: Sendable {
    @usableFromInline let error: InjectionError
    let site: DeclarationSite
    /// Which injector the wrapper searched (see `DependencyInjector.searchedDescription`).
    let searched: String

    @usableFromInline
    init(
        _ error: InjectionError,
        of wrapper: StaticString,
        declaredAt site: DeclarationSite,
        searching injector: DependencyInjector
    ) {
        self.error = error
        self.site = site
        searched = injector.searchedDescription
        WrapperFailureRecorder.report(error, of: wrapper, declaredAt: site, searched: searched, to: .current)
    }

    /// Stops the program: the property of a `wrapper` was read after this failure.
    @usableFromInline
    func stop(_ wrapper: StaticString) -> Never {
        stopReading(wrapper, declaredAt: site, after: error, searched: searched)
    }
}
