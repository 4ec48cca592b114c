// swift-tools-version: 6.2
import PackageDescription

// An app target as Xcode 26 creates it: default isolation on the main actor, with the
// upcoming features it turns on. A package of its own (the root manifest stays at tools 6.1),
// built and tested by `.ci/run`: `swift build --package-path Samples/MainActorApp`.
let appSettings: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .defaultIsolation(MainActor.self),
    .enableUpcomingFeature("NonisolatedNonsendingByDefault"),
    .enableUpcomingFeature("InferIsolatedConformances"),
]

let package = Package(
    name: "MainActorApp",
    // An app's floor, not the library's: `@Observable` (Observation) needs macOS 14 / iOS 17.
    // A package with no `platforms` would also sit below Injector's macOS 10.15, which SwiftPM
    // refuses on Apple platforms.
    platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10), .visionOS(.v1)],
    dependencies: [.package(name: "Injector", path: "../..")],
    targets: [
        .target(
            name: "ShopUI", dependencies: [.product(name: "Injector", package: "Injector")], swiftSettings: appSettings),
        .executableTarget(name: "MainActorApp", dependencies: ["ShopUI"], swiftSettings: appSettings),
        .testTarget(
            name: "ShopUITests",
            dependencies: ["ShopUI", .product(name: "InjectorTesting", package: "Injector")],
            swiftSettings: appSettings
        ),
    ]
)
