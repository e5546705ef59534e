// swift-tools-version:6.0
import PackageDescription

// The main package carries no benchmark-harness dependency: the package-benchmark suite lives in
// Benchmarks/Package.swift and depends on this package by path.
let package = Package(
    name: "inheritance-bench",
    products: [
        .executable(name: "bench", targets: ["bench"]),
        // The workloads, with the modules their public API uses; the package-benchmark suite in
        // Benchmarks/ depends on this.
        .library(name: "Workloads", targets: ["Workloads", "Strategies", "Models", "Generation", "SQLite"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        // SwiftData models read from Swift source: the parser only (no compiler, no macro expansion).
        .package(url: "https://github.com/swiftlang/swift-syntax", from: "603.0.1"),
    ],
    targets: [
        // C bridge: the system libsqlite3 (Debian: libsqlite3-dev). Only `SQLite` (the wrapper) imports it.
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]
        ),
        // C bridge: the system zlib (Debian: zlib1g-dev), for a store's raw-deflate model cache.
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]),
        // A thin SQLite wrapper: connections, statements, binding, one error type.
        .target(name: "SQLite", dependencies: ["CSQLite"]),
        // The model language: entities, attributes, relationships, constraints, fetch indexes; presets.
        .target(name: "Models"),
        // SwiftData `@Model` classes read from Swift source into the model language.
        .target(name: "SwiftDataModels", dependencies: [
            "Models",
            .product(name: "SwiftSyntax", package: "swift-syntax"),
            .product(name: "SwiftParser", package: "swift-syntax"),
            .product(name: "SwiftParserDiagnostics", package: "swift-syntax"),
        ]),
        // Objects of a model as deterministic streams, values, answer digests. No I/O.
        .target(name: "Generation", dependencies: ["Models"]),
        // The storage strategies behind one protocol, one file each, and their registry.
        .target(name: "Strategies", dependencies: ["SQLite", "Models", "Generation"]),
        // A Core Data / SwiftData store file read as a model: its Z_MODELCACHE (raw deflate, binary
        // property list, keyed archive), its tables and its objects per entity, opened read-only;
        // and the proof that single-table lays the model out as the store is.
        .target(name: "CoreDataStores", dependencies: ["Models", "SQLite", "Strategies", "CZlib"]),
        // Every workload as one value, the runner (timing, interleaving, agreement and store checks), query plans.
        .target(name: "Workloads", dependencies: ["Strategies", "Models", "Generation", "SQLite"]),
        // The commit the binary is built from (written before each build by the BuildCommit plugin).
        .target(name: "BuildInfo", plugins: ["BuildCommit"]),
        .plugin(name: "BuildCommit", capability: .buildTool()),
        // Results: statistics, run context, CSV, console tables, compare.
        .target(name: "Reporting", dependencies: ["Workloads", "Strategies", "Models", "SQLite", "Generation", "BuildInfo"]),
        // The command line.
        .executableTarget(
            name: "bench",
            dependencies: [
                "Reporting", "Workloads", "Strategies", "Models", "SwiftDataModels", "CoreDataStores", "Generation", "SQLite",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(name: "SQLiteTests", dependencies: ["SQLite"]),
        .testTarget(name: "ModelsTests", dependencies: ["Models"]),
        .testTarget(name: "SwiftDataModelsTests", dependencies: ["SwiftDataModels", "Models"]),
        .testTarget(name: "GenerationTests", dependencies: ["Generation", "Models"]),
        .target(name: "TestSupport", dependencies: ["Models", "Generation", "Strategies", "CoreDataStores", "SQLite"], path: "Tests/TestSupport"),
        .testTarget(name: "CoreDataStoresTests", dependencies: ["CoreDataStores", "Models", "Strategies", "SQLite", "Generation", "TestSupport"]),
        .testTarget(name: "WorkloadsTests", dependencies: ["Workloads", "Strategies", "Models", "SwiftDataModels", "Generation", "SQLite", "TestSupport"]),
        .testTarget(name: "ReportingTests", dependencies: ["Reporting", "Workloads", "Strategies", "Generation", "SQLite"]),
        .testTarget(name: "benchTests", dependencies: ["bench", "Reporting", "Models", "CoreDataStores", "SQLite", "TestSupport"]),
        .testTarget(name: "StrategiesTests", dependencies: ["Strategies", "Models", "SwiftDataModels", "Generation", "SQLite", "TestSupport"]),
    ]
)
