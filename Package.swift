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
        .library(name: "Workloads", targets: ["Workloads", "Strategies", "FetchRequests", "Models", "Generation", "SQLite"]),
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
        // Where temporary stores go and how they are made, opened and cleaned up: the store
        // folder (memory-backed when the stores fit), a command's private folder, leftovers.
        .target(name: "StoreFiles", dependencies: ["SQLite", "Models"]),
        // Core Data's layout of any model, rule for rule (its tables, columns, indexes, join tables
        // and DDL), and its bookkeeping rows and key reservation: what the strategies and the
        // store reader share.
        .target(name: "CoreDataLayout", dependencies: ["SQLite", "Models", "Generation"]),
        // The request language every layout renders (what a fetch asks: an entity, a predicate of
        // Core Data's forms, sort, page, Core Data's fetch modes), and the fetch format an app's
        // fetches are read from (the entity, an NSPredicate-format predicate, sort, limit), its %@
        // drawn from the data: what a workload, a user's fetch and a logged statement share.
        .target(name: "FetchRequests", dependencies: ["Models", "Generation"]),
        // The storage strategies behind one protocol, a folder each, and their registry.
        .target(name: "Strategies", dependencies: ["FetchRequests", "CoreDataLayout", "StoreFiles", "SQLite", "Models", "Generation"]),
        // A Core Data / SwiftData store file read as a model: its Z_MODELCACHE (raw deflate, binary
        // property list, keyed archive), its tables and its objects per entity, opened read-only;
        // and the proof that single-table lays the model out as the store is.
        .target(name: "CoreDataStores", dependencies: ["Models", "SQLite", "CoreDataLayout", "StoreFiles", "Strategies", "Generation", "CZlib"]),
        // Where a command's model comes from (a preset, a JSON description, an Xcode model,
        // SwiftData sources, a store file), chosen from the path and read into one description.
        .target(name: "ModelSources", dependencies: ["Models", "SwiftDataModels", "CoreDataStores", "SQLite"]),

        // Core Data's SQL debug log read statement by statement (streamed), each statement told by
        // kind (fetch, ID pass, batch, fault, to-many fault, prefetch, count, save steps) and the
        // tables it names, or named as not understood.
        .target(name: "CoreDataLogs", dependencies: ["Models", "CoreDataLayout", "FetchRequests", "Generation", "SQLite"]),

        // An app's fetches read from its Swift sources (NSPredicate(format:) literals, #Predicate,
        // FetchDescriptor, @Query) as fetches of the fetch format, or named as unreadable.
        .target(name: "SourceFetches", dependencies: [
            "SwiftDataModels",
            .product(name: "SwiftSyntax", package: "swift-syntax"),
            .product(name: "SwiftOperators", package: "swift-syntax"),
        ]),
        // Every workload as one value, the runner (timing, interleaving, agreement and store checks), query plans.
        .target(name: "Workloads", dependencies: ["Strategies", "FetchRequests", "StoreFiles", "Models", "Generation", "SQLite"]),
        // The commit the binary is built from (written before each build by the BuildCommit plugin).
        .target(name: "BuildInfo", plugins: ["BuildCommit"]),
        .plugin(name: "BuildCommit", capability: .buildTool()),
        // Results: statistics, run context, CSV, console tables, compare.
        .target(name: "Reporting", dependencies: ["Workloads", "Strategies", "StoreFiles", "Models", "SQLite", "Generation", "BuildInfo"]),
        // The command line.
        .executableTarget(
            name: "bench",
            dependencies: [
                "Reporting", "Workloads", "FetchRequests", "SourceFetches", "Strategies", "StoreFiles", "Models", "ModelSources", "SwiftDataModels", "CoreDataStores", "CoreDataLogs", "Generation",
                "SQLite",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(name: "SQLiteTests", dependencies: ["SQLite"]),
        .testTarget(name: "StoreFilesTests", dependencies: ["StoreFiles"]),
        .testTarget(name: "FetchRequestsTests", dependencies: ["FetchRequests", "Models", "Generation", "Strategies", "TestSupport"]),
        .testTarget(name: "ModelSourcesTests", dependencies: ["ModelSources", "Models", "CoreDataStores", "SQLite", "TestSupport"]),
        .testTarget(name: "ModelsTests", dependencies: ["Models"]),
        .testTarget(name: "SourceFetchesTests", dependencies: ["SourceFetches"]),
        .testTarget(name: "CoreDataLogsTests", dependencies: ["CoreDataLogs", "Models", "CoreDataLayout", "FetchRequests", "Generation", "Strategies", "Workloads", "SQLite", "TestSupport"]),
        .testTarget(name: "SwiftDataModelsTests", dependencies: ["SwiftDataModels", "Models"]),
        .testTarget(name: "GenerationTests", dependencies: ["Generation", "Models"]),
        .target(name: "TestSupport", dependencies: ["FetchRequests", "Models", "Generation", "CoreDataLayout", "StoreFiles", "Strategies", "CoreDataStores", "SQLite"], path: "Tests/TestSupport"),
        .testTarget(name: "CoreDataStoresTests", dependencies: ["CoreDataStores", "Models", "CoreDataLayout", "StoreFiles", "Strategies", "SQLite", "Generation", "TestSupport"]),
        .testTarget(name: "WorkloadsTests", dependencies: ["Workloads", "CoreDataStores", "FetchRequests", "Strategies", "StoreFiles", "Models", "SwiftDataModels", "Generation", "SQLite", "TestSupport"]),
        .testTarget(name: "ReportingTests", dependencies: ["Reporting", "Workloads", "Strategies", "StoreFiles", "Generation", "SQLite"]),
        .testTarget(name: "benchTests", dependencies: ["bench", "Reporting", "StoreFiles", "Models", "CoreDataStores", "SQLite", "TestSupport", "Strategies"]),
        .testTarget(name: "StrategiesTests", dependencies: ["Strategies", "FetchRequests", "CoreDataLayout", "StoreFiles", "Models", "SwiftDataModels", "Generation", "SQLite", "TestSupport"]),
    ]
)
