// swift-tools-version:6.2
import PackageDescription

let package = Package(
    name: "gqlc",
    products: [
        .executable(name: "gqlc", targets: ["gqlc"]),
        .library(name: "GQLCore", targets: ["GQLCore"]),
    ],
    targets: [
        // The libcurl declarations and variadic-call trampolines; libcurl itself is loaded with dlopen.
        .target(name: "CCurlShim"),
        // All logic: JSON, model schema, GraphQL AST, request building, transport, paging.
        .target(
            name: "GQLCore", dependencies: ["CCurlShim"],
            linkerSettings: [.linkedLibrary("dl", .when(platforms: [.linux]))]),
        // The thin command-line front end.
        .executableTarget(name: "gqlc", dependencies: ["GQLCore"]),
        // Golden/ holds expected documents and Vectors/ reference numbers, read through #filePath.
        .testTarget(name: "GQLCoreTests", dependencies: ["GQLCore"], exclude: ["Golden", "Vectors"]),
        .testTarget(name: "gqlcTests", dependencies: ["gqlc"]),
        // The public API as a library user sees it (no @testable import).
        .testTarget(name: "GQLCoreLibraryTests", dependencies: ["GQLCore"]),
        // Throughput benchmarks run by `make bench`.
        .executableTarget(name: "GQLCBench", dependencies: ["GQLCore"], path: "Benchmarks/GQLCBench"),
    ],
    swiftLanguageModes: [.v6]
)
