// swift-tools-version: 6.1
import PackageDescription

// A client app's test suite in which some tests forget a registration or a mock on purpose:
// they fail, each with its message, and every other test runs and passes beside them.
// A package of its own (its failing tests are not the root package's), run by `.ci/run`:
// `swift test --package-path Samples/ForgottenRegistrations`.
let package = Package(
    name: "ForgottenRegistrations",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
    dependencies: [.package(name: "Injector", path: "../..")],
    targets: [
        .target(
            name: "Storefront",
            dependencies: [.product(name: "Injector", package: "Injector")],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .testTarget(
            name: "StorefrontTests",
            dependencies: ["Storefront", .product(name: "InjectorTesting", package: "Injector")],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
    ]
)
