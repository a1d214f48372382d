// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "RiveSync",
    products: [
        .library(name: "RiveSyncModel", targets: ["RiveSyncModel"]),
        .library(name: "RiveSyncJSON", targets: ["RiveSyncJSON"]),
        .library(name: "RiveSyncProtocol", targets: ["RiveSyncProtocol"]),
        .library(name: "RiveSyncTransport", targets: ["RiveSyncTransport"]),
        .library(name: "RiveFile", targets: ["RiveFile"]),
        .executable(name: "rivesync", targets: ["rivesync"]),
        .library(name: "RiveSyncClient", targets: ["RiveSyncClient"]),
    ],
    targets: [
        // The release number shared by rivesyncd and rivesync (`--version`). No I/O.
        .target(name: "RiveSyncVersion"),
        // Pure view-model core: schema, instances, paths, binding, advance, replica. No I/O.
        .target(name: "RiveSyncModel", dependencies: ["RiveSyncJSON"]),
        // Strict JSON parser with limits, and a deterministic serializer. No I/O.
        .target(name: "RiveSyncJSON"),
        .testTarget(name: "RiveSyncModelTests", dependencies: ["RiveSyncModel"]),
        // Wire protocol v1: requests, replies, values, batches, error codes. No I/O.
        .target(name: "RiveSyncProtocol", dependencies: ["RiveSyncModel", "RiveSyncJSON"]),
        .testTarget(name: "RiveSyncProtocolTests", dependencies: ["RiveSyncProtocol"]),
        // The daemon: workers, dispatcher, subscriptions, advances, configuration. Owns all I/O.
        .target(
            name: "RiveSyncServer",
            dependencies: ["RiveSyncModel", "RiveSyncProtocol", "RiveSyncJSON", "RiveSyncTransport", "RiveFile", "CCrypto"],
            // Web/ links the pages (web/) and the JavaScript client (clients/js/) served by --demo or
            // the inspector section.
            resources: [
                .embedInCode("demo.schema.json"), .embedInCode("Web/rivesync.js"), .embedInCode("Web/replica.js"),
                .embedInCode("Web/rive-adapter.js"), .embedInCode("Web/index.html"), .embedInCode("Web/inspector.js"),
                .embedInCode("Web/inspector-editors.js"), .embedInCode("Web/inspector.css"), .embedInCode("Web/preview.html"),
                .embedInCode("Web/preview.js"), .embedInCode("Web/preview.css"),
            ]),
        .executableTarget(name: "rivesyncd", dependencies: ["RiveSyncServer"]),
        .testTarget(
            name: "RiveSyncServerTests",
            dependencies: ["rivesyncd", "RiveSyncServer", "RiveSyncTransport", "RiveSyncProtocol", "RiveSyncModel", "RiveSyncJSON",
                           "RiveSyncTestSupport"],
            exclude: ["python", "journal-v1"]),
        // Test-only: launching a real rivesyncd, shared by the server, client and CLI tests.
        .target(name: "RiveSyncTestSupport", path: "Tests/RiveSyncTestSupport"),
        // Benchmark (not a test): apply + advance throughput of the core.
        .executableTarget(name: "bench-model", dependencies: ["RiveSyncModel"], path: "bench/model"),
        // libwebsockets 4.1.6 (Debian) behind a header-only shim.
        .systemLibrary(name: "CWebSockets", pkgConfig: "libwebsockets",
                       providers: [.apt(["libwebsockets-dev"])]),
        // OpenSSL's libcrypto (Debian) behind a header-only shim: SHA-256 for the daemon.
        .systemLibrary(name: "CCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        // WebSocket/HTTP transport: lws context, service thread, sessions by id. No JSON, no Rive.
        .target(name: "RiveSyncTransport", dependencies: ["CWebSockets"], exclude: ["README.md"]),
        .testTarget(name: "RiveSyncTransportTests", dependencies: ["RiveSyncTransport"]),
        // Pure-Swift .riv reader: data-binding metadata into a FileSchema. No I/O.
        .target(name: "RiveFile", dependencies: ["RiveSyncModel"]),
        .testTarget(name: "RiveFileTests", dependencies: ["RiveFile", "RiveSyncModel"]),
        // The rivesync command line: a small subcommand parser and the subcommands.
        .target(name: "RiveSyncCLI", dependencies: ["RiveFile", "RiveSyncModel", "RiveSyncJSON", "RiveSyncClient", "RiveSyncVersion"]),
        .executableTarget(name: "rivesync", dependencies: ["RiveSyncCLI"]),
        .testTarget(name: "RiveSyncCLITests", dependencies: ["rivesync", "rivesyncd", "RiveSyncTestSupport"]),
        // Headless client: Rive's data-binding API over the wire, with a local replica per target.
        .target(
            name: "RiveSyncClient", dependencies: ["RiveSyncTransport", "RiveSyncProtocol", "RiveSyncModel", "RiveSyncJSON"],
            exclude: ["README.md"]),
        .testTarget(name: "RiveSyncClientTests", dependencies: ["RiveSyncClient", "rivesyncd", "RiveSyncTestSupport"]),
        // Benchmark (not a test): .riv load time against byte-scan baselines.
        .executableTarget(name: "bench-riv-load", dependencies: ["RiveFile"], path: "bench/riv-load"),
        // Benchmark (not a test): WebSocket load generator for bench/run.py (rivesyncd vs peers).
        .target(name: "BenchLoadKit", path: "bench/load-kit"),
        // glibc's epoll and eventfd headers (not in the Swift Glibc module), for bench-load's raw engine.
        .systemLibrary(name: "CEpoll", path: "bench/load-epoll"),
        .executableTarget(name: "bench-load", dependencies: ["BenchLoadKit", "CEpoll", "RiveSyncTransport"], path: "bench/load"),
        .testTarget(name: "BenchLoadTests", dependencies: ["BenchLoadKit"]),
    ],
    swiftLanguageModes: [.v6]
)

// libFuzzer targets for the .riv reader and the protocol message decoder, declared only for
// .ci/fuzz-riv.sh and .ci/fuzz-messages.sh (RIVESYNC_FUZZ=1): they have no main of their own (the
// fuzzer runtime supplies it), so a normal build could not link them.
if Context.environment["RIVESYNC_FUZZ"] == "1" {
    package.products.append(.executable(name: "FuzzRivReader", targets: ["FuzzRivReader"]))
    package.targets.append(.executableTarget(name: "FuzzRivReader", dependencies: ["RiveFile"]))
    package.products.append(.executable(name: "FuzzMessageDecoder", targets: ["FuzzMessageDecoder"]))
    package.targets.append(
        .executableTarget(name: "FuzzMessageDecoder", dependencies: ["RiveSyncProtocol", "RiveSyncModel", "RiveSyncJSON"]))
}
