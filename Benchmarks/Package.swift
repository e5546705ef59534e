// swift-tools-version:6.1
import PackageDescription

// The package-benchmark suite: a package of its own, so that the main package, its build and CI
// carry no harness dependency. It runs the main package's workloads (through
// `Workloads.HarnessCase`), never a copy of them.
//
//   cd Benchmarks && swift package benchmark
//
// `traits: ["MallocInterposer"]` keeps the malloc metrics (through ordo-one/malloc-interposer, no
// jemalloc needed) and leaves out the package's default "RuntimeInterposer" trait, whose extra
// dependency is only needed for ARC metrics on Swift 6.3 on Linux, which this suite does not ask for.
let package = Package(
    name: "inheritance-bench-benchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
        .package(name: "inheritance-bench", path: "../"),
    ],
    targets: [
        .executableTarget(
            name: "InheritanceBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "Workloads", package: "inheritance-bench"),
            ],
            path: "InheritanceBenchmarks",
            plugins: [
                .plugin(name: "BenchmarkPlugin", package: "benchmark"),
            ]
        ),
    ]
)
