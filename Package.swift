// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "RiveSync",
    products: [
        .library(name: "RiveSyncModel", targets: ["RiveSyncModel"]),
        .library(name: "RiveSyncJSON", targets: ["RiveSyncJSON"]),
    ],
    targets: [
        // Pure view-model core: schema, instances, paths, binding, advance, replica. No I/O.
        .target(name: "RiveSyncModel", dependencies: ["RiveSyncJSON"]),
        // Strict JSON parser with limits, and a deterministic serializer. No I/O.
        .target(name: "RiveSyncJSON"),
        .testTarget(name: "RiveSyncModelTests", dependencies: ["RiveSyncModel"]),
    ],
    swiftLanguageModes: [.v6]
)
