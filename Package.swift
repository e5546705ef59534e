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
        .library(name: "Workloads", targets: ["Workloads", "Strategies", "Dataset"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        // C bridge: the system libsqlite3 (Debian: libsqlite3-dev). Only `SQLite` (the wrapper) and
        // `RawReference` (the yardstick the wrapper is measured against) import it.
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]
        ),
        // A thin SQLite wrapper: connections, statements, binding, one error type.
        .target(name: "SQLite", dependencies: ["CSQLite"]),
        // The yardstick for the wrapper's overhead: single-table insert and fetch in direct C calls.
        .target(name: "RawReference", dependencies: ["CSQLite", "Dataset", "Strategies"]),
        // The publication model, the seeded random source and the streaming generator. No I/O.
        .target(name: "Dataset"),
        // The storage strategies behind one protocol, one file each, and their registry.
        .target(name: "Strategies", dependencies: ["SQLite", "Dataset"]),
        // Every workload once, the timing loop and the answer digests.
        .target(name: "Workloads", dependencies: ["Strategies", "Dataset", "SQLite", "RawReference"]),
        // Hierarchies described as data (presets, --hierarchy files, sweeps): their generator, the five
        // strategies derived from a description, and their workloads and runner.
        .target(name: "Hierarchies", dependencies: ["Workloads", "Strategies", "Dataset", "SQLite"]),
        // Results: statistics, run context, CSV, console tables.
        .target(name: "Reporting", dependencies: ["Workloads", "Strategies", "SQLite", "Dataset"]),
        // The command line.
        .executableTarget(
            name: "bench",
            dependencies: [
                "Reporting", "Workloads", "Strategies", "Dataset", "SQLite", "Hierarchies",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .target(name: "TestSupport", dependencies: ["Dataset", "Strategies", "Workloads", "SQLite"], path: "Tests/TestSupport"),
        .testTarget(name: "SQLiteTests", dependencies: ["SQLite"]),
        .testTarget(name: "DatasetTests", dependencies: ["Dataset"]),
        .testTarget(name: "StrategiesTests", dependencies: ["Strategies", "Dataset", "SQLite", "TestSupport", "Workloads"]),
        .testTarget(name: "WorkloadsTests", dependencies: ["Workloads", "Strategies", "Dataset", "SQLite", "TestSupport"]),
        .testTarget(name: "HierarchiesTests", dependencies: ["Hierarchies", "Workloads", "Strategies", "Dataset", "SQLite"]),
        .testTarget(name: "ReportingTests", dependencies: ["Reporting", "Workloads", "Dataset"]),
        .testTarget(name: "benchTests", dependencies: ["bench", "TestSupport", "Reporting"]),
    ]
)
