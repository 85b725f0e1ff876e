// swift-tools-version:6.2
import PackageDescription

let package = Package(
    name: "gqlc",
    products: [
        .executable(name: "gqlc", targets: ["gqlc"]),
        .library(name: "GQLCore", targets: ["GQLCore"]),
        .library(name: "CommandLineKit", targets: ["CommandLineKit"]),
    ],
    targets: [
        // The libcurl declarations and variadic-call trampolines; libcurl itself is loaded with dlopen.
        .target(name: "CCurlShim"),
        // Did-you-mean suggestions by edit distance, shared by GQLCore and CommandLineKit.
        .target(name: "Spelling"),
        // All logic: JSON, model schema, GraphQL AST, request building, transport, paging.
        .target(
            name: "GQLCore", dependencies: ["CCurlShim", "Spelling"],
            linkerSettings: [.linkedLibrary("dl", .when(platforms: [.linux]))]),
        // A generic command-line parser: option and command specs, the scanner, help, man page, completion scripts.
        .target(name: "CommandLineKit", dependencies: ["Spelling"]),
        // The thin command-line front end.
        .executableTarget(name: "gqlc", dependencies: ["GQLCore", "CommandLineKit"]),
        // Golden/ holds expected documents and Vectors/ reference numbers, read through #filePath.
        .testTarget(name: "GQLCoreTests", dependencies: ["GQLCore"], exclude: ["Golden", "Vectors"]),
        .testTarget(name: "gqlcTests", dependencies: ["gqlc"]),
        .testTarget(name: "CommandLineKitTests", dependencies: ["CommandLineKit"]),
        // The public API as a library user sees it (no @testable import).
        .testTarget(name: "GQLCoreLibraryTests", dependencies: ["GQLCore"]),
        // Throughput benchmarks run by `make bench`.
        .executableTarget(name: "GQLCBench", dependencies: ["GQLCore"], path: "Benchmarks/GQLCBench"),
    ],
    swiftLanguageModes: [.v6]
)
