/// Whose singletons a child injector uses for the registrations it inherits: its ancestors'
/// (`shared`, as `DependencyInjector.child()` makes) or its own (`own`, as test and preview
/// scopes make). Not public: each use has a named API (`child()`, `withOverrides`, the testing
/// trait, `InjectorTestCase`, `previewScope()`), so there is one way to get each.
///
/// Only singletons (and weak instances) registered in an ancestor are concerned; the child's
/// own registrations and the transients it inherits behave the same either way.
package enum ChildSingletons: Hashable, Sendable {
    /// A singleton registered in an ancestor is created and kept by that ancestor, with the
    /// ancestor's registrations: every child shares it, and no child's override reaches it.
    /// The default, for scopes that belong to the app (a request, a screen, a session).
    case shared

    /// A singleton registered in an ancestor is built afresh by the child, with the child's
    /// registrations (so its overrides reach it), and kept until the child is dropped. The
    /// ancestors' own copies are neither created nor used.
    ///
    /// For scopes that must not touch the app's state: tests (`withOverrides` and the testing
    /// trait make these) and dry runs. An ordinary child of such a child shares its copies. A
    /// resolve of an inherited singleton takes the child's lock once more than a shared one.
    case own
}
