// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "Injector",
    platforms: [.macOS(.v10_15), .iOS(.v13), .tvOS(.v13), .watchOS(.v6), .visionOS(.v1)],
    products: [
        .library(name: "Injector", targets: ["Injector"]),
        .library(name: "InjectorTesting", targets: ["InjectorTesting"]),
    ],
    targets: [
        // The library and its test support.
        .target(name: "Injector", exclude: ["Unsafe/README.md"]),
        .target(name: "InjectorTesting", dependencies: ["Injector"]),

        // Tests, with helpers shared between the test targets.
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(name: "InjectorTests", dependencies: ["Injector", "TestSupport"]),
        .testTarget(name: "InjectorTestingTests", dependencies: ["Injector", "InjectorTesting", "TestSupport"]),
        .testTarget(name: "InjectorStressTests", dependencies: ["Injector", "InjectorTesting", "TestSupport"]),
        .testTarget(name: "TestHarnessTests", dependencies: ["TestHarness", "InjectorTesting"]),

        // Samples (`swift run <Name>`) and the benchmark (`swift run -c release InjectorBenchmarks`).
        .executableTarget(name: "QuickStart", dependencies: ["Injector"], path: "Samples/QuickStart"),
        .executableTarget(name: "CoffeeShop", dependencies: ["Injector"], path: "Samples/CoffeeShop"),
        .executableTarget(name: "AsyncServer", dependencies: ["Injector"], path: "Samples/AsyncServer"),
        .executableTarget(name: "Migration", dependencies: ["Injector"], path: "Samples/Migration"),
        .executableTarget(name: "TestHarness", dependencies: ["Injector"], path: "Samples/TestHarness"),
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
