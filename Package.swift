// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "Injector",
    platforms: [.macOS(.v10_15), .iOS(.v13), .tvOS(.v13), .watchOS(.v6), .visionOS(.v1)],
    products: [
        .library(name: "Injector", targets: ["Injector"])
    ],
    targets: [
        .target(name: "Injector"),
        .testTarget(name: "InjectorTests", dependencies: ["Injector"]),
        .executableTarget(name: "QuickStart", dependencies: ["Injector"], path: "Samples/QuickStart"),
        .executableTarget(name: "InjectorBenchmarks", dependencies: ["Injector"]),
    ]
)

// Swift 6 language mode everywhere. The library targets also take the upcoming features that
// keep a library honest (as swift-log does); tests and samples compile as users' code does,
// so the classic `Foo() as FooService` snippet is checked exactly as users write it.
for target in package.targets {
    var settings = target.swiftSettings ?? []
    settings.append(.swiftLanguageMode(.v6))
    if target.type == .regular {
        settings += [
            .enableUpcomingFeature("ExistentialAny"),
            .enableUpcomingFeature("InternalImportsByDefault"),
            .enableUpcomingFeature("MemberImportVisibility"),
        ]
    }
    target.swiftSettings = settings
}
